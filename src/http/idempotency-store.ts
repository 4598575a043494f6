// The SQL of idempotency keys. Keys belong to the caller within its tenant: an app's keys live in
// idempotency_keys (migration 0110), a console member's in member_idempotency_keys (migration
// 0170), each table keyed by (tenant, owner, key) and removed with its owner. Each call is one
// statement in its own transaction, so that a claim is visible to every instance at once and
// never waits for the request it guards.
import { randomUUID } from 'node:crypto';
import type { RawSql } from '../db/connection/database.ts';
import { isDatabaseUnavailable } from '../db/connection/connection-loss.ts';

/** Whose keys: an app (a token's ApplicationId) or a console member (a member token's member). */
export interface KeyOwner {
  kind: 'app' | 'member';
  id: string;
}

/** One request's hold on a key, from its claim until its answer is stored or released. */
export interface KeyClaim {
  tenantId: number;
  owner: KeyOwner;
  key: string;
  claim: string;
}

/** What a request under a key answered, to be sent again as it was. */
export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: KeyClaim }
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key was used with another request (method, URL, device or body). */
  | { kind: 'reused' }
  /** The first request under the key is still running. */
  | { kind: 'running' };

export interface IdempotencySettings {
  /** How long a key and its answer are kept after the first request (24 h by default). */
  ttlSeconds: number;
  /**
   * How long a running request holds its key. A row whose lease is over was left by a server
   * that died mid-request: a retry with the same fingerprint takes it over and runs.
   */
  leaseSeconds: number;
}

interface KeyRow {
  fingerprint: string;
  status_code: number | null;
  headers: Record<string, string> | null;
  body: Uint8Array | null;
}

interface OwnerStatements {
  claim: string;
  find: string;
  complete: string;
  release: string;
  prune: string;
}

const PRUNE_BATCH = 10_000;

/**
 * The statements of one owner kind's table ($2 is always the owner's id). The claim reads the
 * statement's time from the new row (excluded.created_at): Citus runs no function but immutable
 * ones in an upsert's DO UPDATE.
 */
function statementsFor(table: string, owner: string): OwnerStatements {
  return {
    claim: `
  insert into ${table} as k
         (tenant_id, ${owner}, key, fingerprint, claim, created_at, locked_until, expires_at)
  values ($1, $2, $3, $4, $5, now(), now() + make_interval(secs => $6), now() + make_interval(secs => $7))
  on conflict (tenant_id, ${owner}, key) do update
     set fingerprint = excluded.fingerprint, claim = excluded.claim,
         locked_until = excluded.locked_until, expires_at = excluded.expires_at,
         created_at = excluded.created_at, status_code = null, headers = null, body = null
   where k.expires_at <= excluded.created_at
      or (k.status_code is null and k.locked_until <= excluded.created_at and k.fingerprint = excluded.fingerprint)
  returning 1 as claimed`,
    find: `
  select fingerprint, status_code, headers, body
    from ${table}
   where tenant_id = $1 and ${owner} = $2 and key = $3 and expires_at > now()`,
    complete: `
  update ${table}
     set status_code = $5, headers = $6::text::jsonb, body = $7, locked_until = null
   where tenant_id = $1 and ${owner} = $2 and key = $3 and claim = $4`,
    release: `
  delete from ${table}
   where tenant_id = $1 and ${owner} = $2 and key = $3 and claim = $4`,
    prune: `
  with gone as (
    delete from ${table}
     where (tenant_id, ${owner}, key) in (
       select tenant_id, ${owner}, key from ${table} where expires_at < now() limit ${PRUNE_BATCH})
    returning 1)
  select count(*)::int as n from gone`,
  };
}

const STATEMENTS: Record<KeyOwner['kind'], OwnerStatements> = {
  app: statementsFor('idempotency_keys', 'app_id'),
  member: statementsFor('member_idempotency_keys', 'member_id'),
};

/** Prepared-statement names: the app's keep their names of before, the member's their own. */
const statementName = (kind: KeyOwner['kind'], statement: string) =>
  kind === 'app' ? `idempotency_${statement}` : `idempotency_member_${statement}`;

/** A row that vanishes between a refused claim and its read (released, expired) is claimed again. */
const CLAIM_ATTEMPTS = 3;

/** How many unreleased claims a server remembers (a few per request that failed in an outage). */
const MAX_UNRELEASED = 10_000;

/** One key of one owner in one tenant, as a map key. */
const scopeOf = (tenantId: number, owner: KeyOwner, key: string) =>
  `${tenantId}\u0000${owner.kind}\u0000${owner.id}\u0000${key}`;

export class IdempotencyStore {
  private readonly sql: RawSql;
  private readonly settings: IdempotencySettings;
  /**
   * Claims this server could not release because the database was unreachable (a request that
   * failed 503 during an outage or a failover): the retry of that request under the same key
   * releases its claim first and runs, instead of being told the key is in use until the
   * lease ends.
   */
  private readonly unreleased = new Map<string, KeyClaim>();

  constructor(sql: RawSql, settings: IdempotencySettings) {
    this.sql = sql;
    this.settings = settings;
  }

  /** Claims the key for this request, or tells what the request under it answered or does. */
  async claim(
    tenantId: number,
    owner: KeyOwner,
    key: string,
    fingerprint: string,
  ): Promise<ClaimOutcome> {
    const sql = STATEMENTS[owner.kind];
    const scope = [tenantId, owner.id, key];
    const left = this.unreleased.get(scopeOf(tenantId, owner, key));
    if (left) await this.release(left);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const claim = randomUUID();
      const claimed = await this.sql.prepared(statementName(owner.kind, 'claim'), sql.claim, [
        ...scope,
        fingerprint,
        claim,
        this.settings.leaseSeconds,
        this.settings.ttlSeconds,
      ]);
      if (claimed.length === 1) return { kind: 'claimed', claim: { tenantId, owner, key, claim } };
      const [row] = await this.sql.prepared<KeyRow>(
        statementName(owner.kind, 'find'),
        sql.find,
        scope,
      );
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      if (row.status_code === null) return { kind: 'running' };
      return {
        kind: 'replay',
        answer: {
          statusCode: row.status_code,
          headers: row.headers ?? {},
          body: Buffer.from(row.body ?? new Uint8Array()),
        },
      };
    }
    return { kind: 'running' };
  }

  /** Stores the answer of the request holding the claim (no-op if another took the key over). */
  async complete(claim: KeyClaim, answer: StoredAnswer): Promise<void> {
    const { kind } = claim.owner;
    await this.sql.prepared(statementName(kind, 'complete'), STATEMENTS[kind].complete, [
      claim.tenantId,
      claim.owner.id,
      claim.key,
      claim.claim,
      answer.statusCode,
      JSON.stringify(answer.headers),
      answer.body,
    ]);
  }

  /** Frees the key without an answer: the next request under it runs afresh. */
  async release(claim: KeyClaim): Promise<void> {
    const { kind } = claim.owner;
    const scope = scopeOf(claim.tenantId, claim.owner, claim.key);
    try {
      await this.sql.prepared(statementName(kind, 'release'), STATEMENTS[kind].release, [
        claim.tenantId,
        claim.owner.id,
        claim.key,
        claim.claim,
      ]);
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        this.unreleased.set(scope, claim);
        // A client that never retries leaves its claim to the lease: the oldest are forgotten.
        if (this.unreleased.size > MAX_UNRELEASED)
          this.unreleased.delete(this.unreleased.keys().next().value!);
      }
      throw error;
    }
    if (this.unreleased.get(scope) === claim) this.unreleased.delete(scope);
  }

  /** Deletes the keys past their expiry (apps' and members'), in batches; answers how many went. */
  async prune(): Promise<number> {
    let total = 0;
    for (const { prune } of Object.values(STATEMENTS)) {
      for (;;) {
        const [row] = await this.sql.query<{ n: number }>(prune);
        total += row!.n;
        if (row!.n < PRUNE_BATCH) break;
      }
    }
    return total;
  }
}
