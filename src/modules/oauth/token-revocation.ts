// Ends tokens before they expire: one token (RFC 7009), every token of an app or a member, or
// every token of a tenant. This instance forgets them at once; the rows written to
// auth_invalidations tell every other instance within seconds (invalidation-poll.ts).
import type { DatabaseHandle, RawSql } from '../../db/database.ts';
import type { TokenClaims } from './token-claims.ts';
import type { VerifiedTokenCache } from './verified-token-cache.ts';

export class TokenRevocation {
  private readonly db: DatabaseHandle;
  private readonly cache: VerifiedTokenCache;

  constructor(db: DatabaseHandle, cache: VerifiedTokenCache) {
    this.db = db;
    this.cache = cache;
  }

  /** Revokes one token (RFC 7009); takes effect here at once, elsewhere at the next poll. */
  async revoke(tenantId: number, claims: TokenClaims): Promise<void> {
    await this.db.rawTransaction(async (tx) => {
      await tx.query(
        `insert into revoked_tokens (tenant_id, jti, expires_at) values ($1, $2, $3)
         on conflict do nothing`,
        [tenantId, claims.jti!, new Date(claims.exp! * 1000)],
      );
      await tx.query(
        'insert into auth_invalidations (tenant_id, app_id, jti) values ($1, $2, $3)',
        [tenantId, claims.sub!, claims.jti!],
      );
    });
    this.cache.forget(tenantId, claims.sub!, claims.jti);
  }

  /** Records, inside the caller's transaction, that every token of an app (or a member) is void. */
  async invalidateApp(tx: RawSql, tenantId: number, appId: string): Promise<void> {
    await tx.query('insert into auth_invalidations (tenant_id, app_id) values ($1, $2)', [
      tenantId,
      appId,
    ]);
  }

  /** Records, inside the caller's transaction, that every token of a tenant is void. */
  async invalidateTenant(tx: RawSql, tenantId: number): Promise<void> {
    await tx.query('insert into auth_invalidations (tenant_id, app_id) values ($1, null)', [
      tenantId,
    ]);
  }
}
