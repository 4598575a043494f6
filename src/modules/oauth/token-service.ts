// The oauth module's tokens as one service (contract §3): issuing (token-issuer.ts), verifying
// with a cache of verified tokens (token-verification.ts, verified-token-cache.ts), revoking
// (token-revocation.ts) and applying other instances' revocations (invalidation-poll.ts). Routes,
// the apps service and other modules (through module-wiring.ts) use this one object.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { Principal, Scope, TokenVerifier } from '../../domain/principal.ts';
import { InvalidationPoll, type TenantInvalidatedListener } from './invalidation-poll.ts';
import { SigningKeys } from './signing-keys.ts';
import type { IssuedMemberToken, IssuedToken, TokenClaims, TokenMember } from './token-claims.ts';
import { TokenIssuer } from './token-issuer.ts';
import { TokenRevocation, type IssuedTokenRef } from './token-revocation.ts';
import { TokenVerification, type MemberVersionLookup } from './token-verification.ts';
import { VerifiedTokenCache } from './verified-token-cache.ts';

export type { IssuedMemberToken, IssuedToken, TokenClaims, TokenMember };

type Tenant = { id: number; baseUrl: string };

export class TokenService implements TokenVerifier {
  readonly keys: SigningKeys;
  private readonly cache = new VerifiedTokenCache();
  private readonly issuer: TokenIssuer;
  private readonly verification: TokenVerification;
  private readonly revocation: TokenRevocation;
  private readonly invalidations: InvalidationPoll;

  constructor(
    db: DatabaseHandle,
    ttlSeconds: number,
    log: () => FastifyBaseLogger | undefined = () => undefined,
  ) {
    this.keys = new SigningKeys(db, ttlSeconds);
    this.issuer = new TokenIssuer(this.keys, ttlSeconds);
    this.verification = new TokenVerification(db, this.keys, this.cache);
    this.revocation = new TokenRevocation(db, this.cache);
    this.invalidations = new InvalidationPoll(db, this.keys, this.cache, log);
  }

  async start(): Promise<void> {
    await this.keys.load();
    await this.invalidations.start();
  }

  stop(): void {
    this.invalidations.stop();
  }

  issue(
    tenant: Tenant,
    app: { id: string; secretVersion: number },
    scopes: readonly Scope[],
    device?: { id: string; generation: string },
  ): Promise<IssuedToken> {
    return this.issuer.issue(tenant, app, scopes, device);
  }

  /** An access token for a member signed in through a public client (the console). */
  issueMember(tenant: Tenant, clientId: string, member: TokenMember): Promise<IssuedMemberToken> {
    return this.issuer.issueMember(tenant, clientId, member);
  }

  /** Sets how members' tokens find their member (the members module hands it in). */
  resolveMembersWith(lookup: MemberVersionLookup): void {
    this.verification.resolveMembersWith(lookup);
  }

  verify(token: string, tenant: Tenant): Promise<Principal> {
    return this.verification.verify(token, tenant);
  }

  verifyCached(token: string, tenant: Tenant): Principal | undefined {
    return this.verification.verifyCached(token, tenant);
  }

  /** Claims and principal of a token as they hold now, bypassing the cache (introspection). */
  inspect(token: string, tenant: Tenant): Promise<{ claims: TokenClaims; principal: Principal }> {
    return this.verification.inspect(token, tenant);
  }

  verifySignature(
    token: string,
    baseUrl: string,
    options: { allowExpired?: boolean } = {},
  ): Promise<TokenClaims> {
    return this.verification.verifySignature(token, baseUrl, options);
  }

  revoke(tenantId: number, claims: TokenClaims): Promise<void> {
    return this.revocation.revoke(tenantId, claims);
  }

  /** Records, inside the caller's transaction, that these tokens (not expired yet) are revoked. */
  revokeIssued(tx: RawSql, tenantId: number, issued: readonly IssuedTokenRef[]): Promise<void> {
    return this.revocation.revokeIssued(tx, tenantId, issued);
  }

  /** Records, inside the caller's transaction, that every token of an app (or a member) is void. */
  invalidateApp(tx: RawSql, tenantId: number, appId: string): Promise<void> {
    return this.revocation.invalidateApp(tx, tenantId, appId);
  }

  /** Records, inside the caller's transaction, that every token of a tenant is void. */
  invalidateTenant(tx: RawSql, tenantId: number): Promise<void> {
    return this.revocation.invalidateTenant(tx, tenantId);
  }

  /** Drops cached tokens of an app or a member (or one token of it) on this instance. */
  forget(tenantId: number, appId: string, jti?: string | null): void {
    this.cache.forget(tenantId, appId, jti);
  }

  /** Drops every cached token of a tenant on this instance (the tenant was deleted). */
  forgetTenant(tenantId: number): void {
    this.cache.forgetTenant(tenantId);
  }

  /** Adds a listener for tenants deleted on another instance (seen by the invalidation poll). */
  onTenantInvalidated(listener: TenantInvalidatedListener): void {
    this.invalidations.onTenantInvalidated(listener);
  }

  /** Applies what other instances invalidated since the last poll (tests call it directly). */
  poll(): Promise<void> {
    return this.invalidations.poll();
  }

  /** How many tokens this instance holds verified (for tests and metrics). */
  get cachedTokens(): number {
    return this.cache.size;
  }
}
