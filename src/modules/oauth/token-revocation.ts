// Ends tokens before they expire: one token (RFC 7009), every token of an app or a member, or
// every token of a tenant. This instance forgets them at once; the rows written to
// auth_invalidations tell every other instance within seconds (invalidation-poll.ts).
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { TokenClaims } from './token-claims.ts';
import type { VerifiedTokenCache } from './verified-token-cache.ts';

/** A token issued before, by its id, its subject (app or member) and its expiry. */
export interface IssuedTokenRef {
  jti: string;
  subjectId: string;
  expiresAt: Date;
}

// Revokes here (revoked_tokens) and in other instances' caches (auth_invalidations) the tokens
// of $2 (a JSON array) that have not expired yet.
const REVOKE_ISSUED = `
  with issued as (
    select (t->>'jti')::uuid as jti, (t->>'sub')::uuid as subject_id,
           (t->>'exp')::timestamptz as expires_at
      from jsonb_array_elements($2::jsonb) t),
  live as (select * from issued where expires_at > now()),
  revoked as (
    insert into revoked_tokens (tenant_id, jti, expires_at)
    select $1, jti, expires_at from live
    on conflict do nothing returning jti)
  insert into auth_invalidations (tenant_id, app_id, jti)
  select $1, subject_id, jti from live`;

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

  /**
   * Records, inside the caller's transaction, that the given tokens are revoked (those not
   * expired yet): a member's session ended, with the access tokens issued in it.
   */
  async revokeIssued(tx: RawSql, tenantId: number, issued: readonly IssuedTokenRef[]) {
    if (issued.length === 0) return;
    await tx.query(REVOKE_ISSUED, [
      tenantId,
      JSON.stringify(
        issued.map((t) => ({ jti: t.jti, sub: t.subjectId, exp: t.expiresAt.toISOString() })),
      ),
    ]);
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
