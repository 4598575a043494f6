// Public clients (RFC 6749 §2.1: no secret) are served by other modules through this one-way
// extension point: a module registers a client with the grants it answers at /oauth/token and
// how sign-out ends its sessions at /oauth/revoke. The oauth module checks the client and the
// form, and answers in RFC 6749 terms; it never knows what the client's sessions are. (The
// members module registers the console.)
import type { IssuedToken } from './token-claims.ts';

/** Tokens a public client's grant issued. */
export interface GrantedTokens extends IssuedToken {
  refreshToken?: string;
}

/** What a grant came to: tokens, or the reason it was refused (RFC 6749 invalid_grant). */
export type GrantOutcome = { tokens: GrantedTokens } | { refused: string };

/** Form fields of the token request that a public client's grant may require. */
export type GrantField = 'code' | 'redirect_uri' | 'code_verifier' | 'refresh_token';

export interface PublicClientGrant {
  /** Fields that must be present and not empty, checked in this order. */
  requires: readonly GrantField[];
  exchange(
    tenant: { id: number; baseUrl: string },
    clientId: string,
    fields: Partial<Record<GrantField, string>>,
  ): Promise<GrantOutcome>;
}

export interface PublicClient {
  clientId: string;
  /** By grant_type. */
  grants: Record<string, PublicClientGrant>;
  /**
   * Sign-out: ends the session of an opaque (refresh) token, or of an access token of this
   * client, given its jti. Answers false when it is none of this client's sessions.
   */
  endSession(tenantId: number, token: { token: string; accessJti?: string }): Promise<boolean>;
}

export class PublicClients {
  private readonly byGrant = new Map<string, PublicClient>();
  private readonly byId = new Map<string, PublicClient>();

  register(client: PublicClient): void {
    this.byId.set(client.clientId, client);
    for (const grantType of Object.keys(client.grants)) this.byGrant.set(grantType, client);
  }

  /** The client that answers a grant type, with its grant, if any does. */
  forGrant(grantType: string): { client: PublicClient; grant: PublicClientGrant } | undefined {
    const client = this.byGrant.get(grantType);
    const grant = client?.grants[grantType];
    return client && grant ? { client, grant } : undefined;
  }

  find(clientId: string | undefined): PublicClient | undefined {
    return clientId === undefined ? undefined : this.byId.get(clientId);
  }
}
