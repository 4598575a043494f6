// Who calls: the principal a verified token stands for, and the verifier that turns a token into
// one. The oauth module verifies tokens; the HTTP layer only asks (app.ts wires the two).
import type { RequestTenant } from './tenant.ts';

/** What a member's role allows: `<area>:read`, `<area>:write`, or `*` for everything. */
export type Permission = `${string}:${'read' | 'write'}` | '*';

/** What a token grants: the public (device-facing), private or management API. */
export type Scope = 'public' | 'private' | 'management';

export interface Principal {
  tenantId: number;
  /** The app the token was issued to (for a member signed in through the console: `console`). */
  appId: string;
  /** The app's name, or the member's username: how the change history names the caller. */
  name?: string;
  /** The app's type (1 Consumer … 4 Device); rate limits are set per type. */
  appTypeId: number;
  scopes: ReadonlySet<Scope>;
  jti: string;
  expiresAt: number;
  /** The physical device an identity token is bound to. */
  deviceId?: string;
  /** Which incarnation of that device id (its row's generation) the token was issued to. */
  deviceGeneration?: string;
  /** A member's token (browser sign-in): the member's id. */
  memberId?: string;
  /** A member's token: what the member's roles allow (route-permissions.ts); checked after the
   * scopes. App tokens have none and are governed by their scopes alone. */
  permissions?: ReadonlySet<string>;
}

export class InvalidTokenError extends Error {}

export interface TokenVerifier {
  /** The principal of a token presented on this tenant's host; throws InvalidTokenError. */
  verify(token: string, tenant: RequestTenant): Promise<Principal>;
  /** The same answer without waiting when the token was verified before; else undefined. */
  verifyCached(token: string, tenant: RequestTenant): Principal | undefined;
}
