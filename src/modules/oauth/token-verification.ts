// Verifies bearer tokens: a token verified before answers from the cache; otherwise its
// signature and claims are checked, then whether its app (or member) still stands behind it.
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { InvalidTokenError, type Principal, type Scope } from '../../domain/principal.ts';
import { TOKEN_ALGORITHM, type SigningKeys } from './signing-keys.ts';
import { isMemberToken, type TokenClaims } from './token-claims.ts';
import type { VerifiedTokenCache } from './verified-token-cache.ts';

/**
 * The member a member's token names, as it is now (its security version), or undefined when it
 * is gone. The members module keeps members and hands this in (see `resolveMembersWith`).
 */
export type MemberVersionLookup = (
  tenantId: number,
  memberId: string,
) => Promise<{ version: number; username?: string } | undefined>;

const KEY_RELOAD_MIN_INTERVAL_MS = 1_000;

export class TokenVerification {
  private readonly db: DatabaseHandle;
  private readonly keys: SigningKeys;
  private readonly cache: VerifiedTokenCache;
  private memberVersion: MemberVersionLookup = async () => undefined;
  private lastKeyReload = 0;

  constructor(db: DatabaseHandle, keys: SigningKeys, cache: VerifiedTokenCache) {
    this.db = db;
    this.keys = keys;
    this.cache = cache;
  }

  /** Sets how members' tokens find their member (until then, no member token verifies). */
  resolveMembersWith(lookup: MemberVersionLookup): void {
    this.memberVersion = lookup;
  }

  /** The principal of a bearer token presented on this tenant's host, or InvalidTokenError. */
  async verify(token: string, tenant: { id: number; baseUrl: string }): Promise<Principal> {
    const cached = this.verifyCached(token, tenant);
    if (cached) return cached;
    const generation = this.cache.generation;
    const claims = await this.verifySignature(token, tenant.baseUrl);
    const principal = await this.checkStillValid(claims, tenant.id);
    const ttl = principal.expiresAt - Date.now();
    if (generation === this.cache.generation && ttl > 0)
      this.cache.set(token, { audience: tenant.baseUrl, principal }, ttl);
    return principal;
  }

  /**
   * A token's claims and principal, checked against the database now and never answered from
   * this instance's cache (which learns of other instances' revocations only at the next poll):
   * token introspection (RFC 7662) answers what holds at this moment. InvalidTokenError when the
   * token is not (any more) valid on this tenant.
   */
  async inspect(
    token: string,
    tenant: { id: number; baseUrl: string },
  ): Promise<{ claims: TokenClaims; principal: Principal }> {
    const claims = await this.verifySignature(token, tenant.baseUrl);
    return { claims, principal: await this.checkStillValid(claims, tenant.id) };
  }

  /** The principal of a token verified before (InvalidTokenError if it no longer holds), or
   * undefined when this instance has not verified it yet. */
  verifyCached(token: string, tenant: { id: number; baseUrl: string }): Principal | undefined {
    const cached = this.cache.get(token);
    if (!cached) return undefined;
    // The same base URL with another id: the tenant was deleted and made again under its name.
    if (cached.audience !== tenant.baseUrl || cached.principal.tenantId !== tenant.id)
      throw new InvalidTokenError('The token was issued for another tenant.');
    if (cached.principal.expiresAt <= Date.now()) {
      this.cache.delete(token);
      throw new InvalidTokenError('The token has expired.');
    }
    return cached.principal;
  }

  /** Verifies signature and claims, ignoring app state: used by revocation (RFC 7009). */
  async verifySignature(
    token: string,
    baseUrl: string,
    options: { allowExpired?: boolean } = {},
  ): Promise<TokenClaims> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new InvalidTokenError('The token is malformed.');
    }
    if (this.keys.verificationKey(kid) === undefined) await this.reloadKeysSoon();
    const key = this.keys.verificationKey(kid);
    if (!key) throw new InvalidTokenError('The token was not signed by this server.');
    try {
      const { payload } = await jwtVerify<TokenClaims>(token, key, {
        issuer: baseUrl,
        audience: baseUrl,
        algorithms: [TOKEN_ALGORITHM],
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        ...(options.allowExpired ? { currentDate: new Date(0) } : {}),
      });
      if (typeof payload.scope !== 'string' || typeof payload.ver !== 'number') {
        throw new InvalidTokenError('The token is malformed.');
      }
      return payload;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof joseErrors.JWTExpired)
        throw new InvalidTokenError('The token has expired.');
      if (
        error instanceof joseErrors.JWTClaimValidationFailed &&
        (error.claim === 'aud' || error.claim === 'iss')
      ) {
        throw new InvalidTokenError('The token was issued for another tenant.');
      }
      throw new InvalidTokenError('The token is malformed or its signature does not verify.');
    }
  }

  private async checkStillValid(claims: TokenClaims, tenantId: number): Promise<Principal> {
    if (isMemberToken(claims)) return this.checkMemberStillValid(claims, tenantId);
    const jti = claims.jti!;
    const [state] = await this.db.prepared<{
      secretVersion: number;
      appTypeId: number;
      name: string;
      revoked: boolean;
    }>(
      'oauth_token_state',
      `select secret_version as "secretVersion", application_type_id as "appTypeId", name,
              exists (select 1 from revoked_tokens r where r.tenant_id = $1 and r.jti = $3) as revoked
         from oauth_apps where tenant_id = $1 and id = $2`,
      [tenantId, claims.sub!, jti],
    );
    if (!state) throw new InvalidTokenError('The app of this token no longer exists.');
    if (state.secretVersion !== claims.ver)
      throw new InvalidTokenError("The app's secret or type changed after this token was issued.");
    if (state.revoked) throw new InvalidTokenError('The token has been revoked.');
    return {
      tenantId,
      appId: claims.sub!,
      appTypeId: state.appTypeId,
      name: state.name,
      scopes: new Set(claims.scope.split(' ').filter(Boolean) as Scope[]),
      jti,
      expiresAt: claims.exp! * 1000,
      ...(claims.dev ? { deviceId: claims.dev } : {}),
      ...(typeof claims.dvg === 'string' ? { deviceGeneration: claims.dvg } : {}),
    };
  }

  private async checkMemberStillValid(claims: TokenClaims, tenantId: number): Promise<Principal> {
    const jti = claims.jti!;
    if (!Array.isArray(claims.perm) || typeof claims.client_id !== 'string')
      throw new InvalidTokenError('The token is malformed.');
    const [member, [revoked]] = await Promise.all([
      this.memberVersion(tenantId, claims.sub!),
      this.db.prepared<{ jti: string }>(
        'oauth_token_revoked',
        'select jti from revoked_tokens where tenant_id = $1 and jti = $2',
        [tenantId, jti],
      ),
    ]);
    if (!member) throw new InvalidTokenError('The member of this token no longer exists.');
    if (member.version !== claims.ver)
      throw new InvalidTokenError(
        "The member's password or roles changed after this token was issued.",
      );
    if (revoked) throw new InvalidTokenError('The token has been revoked (signed out).');
    return {
      tenantId,
      appId: claims.client_id,
      appTypeId: 0,
      scopes: new Set(claims.scope.split(' ').filter(Boolean) as Scope[]),
      jti,
      expiresAt: claims.exp! * 1000,
      memberId: claims.sub!,
      ...(member.username !== undefined ? { name: member.username } : {}),
      permissions: new Set(claims.perm),
    };
  }

  private async reloadKeysSoon(): Promise<void> {
    if (Date.now() - this.lastKeyReload < KEY_RELOAD_MIN_INTERVAL_MS) return;
    this.lastKeyReload = Date.now();
    await this.keys.load();
  }
}
