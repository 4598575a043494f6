// Identity tokens (contract §3): tokens bound to a registered physical device (`dev`). The
// device is looked up live on every request such a token makes, so a device deleted since the
// token was issued makes its tokens invalid (401) at once, on every route and every instance.
// A device made again under the same id has another generation, so it does not revive them.
import type { Principal, TokenVerifier } from '../../domain/principal.ts';
import { InvalidTokenError } from '../../domain/principal.ts';
import type { RequestTenant } from '../../domain/tenant.ts';
import type { TokenClaims } from './token-claims.ts';

/** The token verifier underneath, with its cache-free check (introspection). */
export interface InspectingVerifier extends TokenVerifier {
  inspect(
    token: string,
    tenant: RequestTenant,
  ): Promise<{ claims: TokenClaims; principal: Principal }>;
}

/** The physical device as it is now, or undefined when it does not exist (company module). */
export type PhysicalDeviceLookup = (
  tenantId: number,
  deviceId: string,
) => Promise<{ storeId: number | null; generation: string } | undefined>;

/** Wraps the token verifier: identity tokens also need their device to exist. */
export class DeviceBoundVerifier implements TokenVerifier {
  private readonly tokens: InspectingVerifier;
  private readonly physicalDevice: PhysicalDeviceLookup;
  constructor(tokens: InspectingVerifier, physicalDevice: PhysicalDeviceLookup) {
    this.tokens = tokens;
    this.physicalDevice = physicalDevice;
  }

  async verify(token: string, tenant: RequestTenant): Promise<Principal> {
    const principal = await this.tokens.verify(token, tenant);
    await this.checkDevice(principal);
    return principal;
  }

  /** What a token carries and stands for as it holds now, device included (introspection). */
  async inspect(
    token: string,
    tenant: RequestTenant,
  ): Promise<{ claims: TokenClaims; principal: Principal }> {
    const inspected = await this.tokens.inspect(token, tenant);
    await this.checkDevice(inspected.principal);
    return inspected;
  }

  /** Identity tokens always take the path that checks the device. */
  verifyCached(token: string, tenant: RequestTenant): Principal | undefined {
    const principal = this.tokens.verifyCached(token, tenant);
    return principal?.deviceId === undefined ? principal : undefined;
  }

  private async checkDevice(principal: Principal): Promise<void> {
    if (principal.deviceId === undefined) return;
    const device = await this.physicalDevice(principal.tenantId, principal.deviceId);
    // A token without a generation predates it and cannot be told from one of a deleted device.
    if (!device || device.generation !== principal.deviceGeneration)
      throw new InvalidTokenError('The physical device of this identity token no longer exists.');
  }
}
