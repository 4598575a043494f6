// Identity tokens (contract §3): tokens bound to a registered physical device (`dev`). The
// device is looked up live on every request such a token makes, so a device deleted since the
// token was issued makes its tokens invalid (401) at once, on every route and every instance.
// A device made again under the same id has another generation, so it does not revive them.
import type { Principal, TokenVerifier } from '../../domain/principal.ts';
import { InvalidTokenError } from '../../domain/principal.ts';
import type { RequestTenant } from '../../domain/tenant.ts';

/** The physical device as it is now, or undefined when it does not exist (company module). */
export type PhysicalDeviceLookup = (
  tenantId: number,
  deviceId: string,
) => Promise<{ storeId: number | null; generation: string } | undefined>;

/** Wraps the token verifier: identity tokens also need their device to exist. */
export class DeviceBoundVerifier implements TokenVerifier {
  private readonly tokens: TokenVerifier;
  private readonly physicalDevice: PhysicalDeviceLookup;
  constructor(tokens: TokenVerifier, physicalDevice: PhysicalDeviceLookup) {
    this.tokens = tokens;
    this.physicalDevice = physicalDevice;
  }

  async verify(token: string, tenant: RequestTenant): Promise<Principal> {
    const principal = await this.tokens.verify(token, tenant);
    if (principal.deviceId !== undefined) {
      const device = await this.physicalDevice(principal.tenantId, principal.deviceId);
      // A token without a generation predates it and cannot be told from one of a deleted device.
      if (!device || device.generation !== principal.deviceGeneration)
        throw new InvalidTokenError('The physical device of this identity token no longer exists.');
    }
    return principal;
  }

  /** Identity tokens always take the path that checks the device. */
  verifyCached(token: string, tenant: RequestTenant): Principal | undefined {
    const principal = this.tokens.verifyCached(token, tenant);
    return principal?.deviceId === undefined ? principal : undefined;
  }
}
