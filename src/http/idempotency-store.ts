// The SQL of idempotency keys (table idempotency_keys, migration 0110). Each call is one
// statement in its own transaction, so that a claim is visible to every instance at once and
// never waits for the request it guards.
import { randomUUID } from 'node:crypto';
import type { RawSql } from '../db/database.ts';

/** One request's hold on a key, from its claim until its answer is stored or released. */
export interface KeyClaim {
  tenantId: number;
  appId: string;
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

const CLAIM = `
  insert into idempotency_keys as k
         (tenant_id, app_id, key, fingerprint, claim, locked_until, expires_at)
  values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), now() + make_interval(secs => $7))
  on conflict (tenant_id, app_id, key) do update
     set fingerprint = excluded.fingerprint, claim = excluded.claim,
         locked_until = excluded.locked_until, expires_at = excluded.expires_at,
         created_at = now(), status_code = null, headers = null, body = null
   where k.expires_at <= now()
      or (k.status_code is null and k.locked_until <= now() and k.fingerprint = excluded.fingerprint)
  returning 1 as claimed`;

const FIND = `
  select fingerprint, status_code, headers, body
    from idempotency_keys
   where tenant_id = $1 and app_id = $2 and key = $3 and expires_at > now()`;

const COMPLETE = `
  update idempotency_keys
     set status_code = $5, headers = $6::text::jsonb, body = $7, locked_until = null
   where tenant_id = $1 and app_id = $2 and key = $3 and claim = $4`;

const RELEASE = `
  delete from idempotency_keys
   where tenant_id = $1 and app_id = $2 and key = $3 and claim = $4`;

const PRUNE_BATCH = 10_000;
const PRUNE = `
  with gone as (
    delete from idempotency_keys
     where (tenant_id, app_id, key) in (
       select tenant_id, app_id, key from idempotency_keys where expires_at < now() limit ${PRUNE_BATCH})
    returning 1)
  select count(*)::int as n from gone`;

/** A row that vanishes between a refused claim and its read (released, expired) is claimed again. */
const CLAIM_ATTEMPTS = 3;

export class IdempotencyStore {
  private readonly sql: RawSql;
  private readonly settings: IdempotencySettings;

  constructor(sql: RawSql, settings: IdempotencySettings) {
    this.sql = sql;
    this.settings = settings;
  }

  /** Claims the key for this request, or tells what the request under it answered or does. */
  async claim(
    tenantId: number,
    appId: string,
    key: string,
    fingerprint: string,
  ): Promise<ClaimOutcome> {
    const scope = [tenantId, appId, key];
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const claim = randomUUID();
      const claimed = await this.sql.prepared('idempotency_claim', CLAIM, [
        ...scope,
        fingerprint,
        claim,
        this.settings.leaseSeconds,
        this.settings.ttlSeconds,
      ]);
      if (claimed.length === 1) return { kind: 'claimed', claim: { tenantId, appId, key, claim } };
      const [row] = await this.sql.prepared<KeyRow>('idempotency_find', FIND, scope);
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
    await this.sql.prepared('idempotency_complete', COMPLETE, [
      claim.tenantId,
      claim.appId,
      claim.key,
      claim.claim,
      answer.statusCode,
      JSON.stringify(answer.headers),
      answer.body,
    ]);
  }

  /** Frees the key without an answer: the next request under it runs afresh. */
  async release(claim: KeyClaim): Promise<void> {
    await this.sql.prepared('idempotency_release', RELEASE, [
      claim.tenantId,
      claim.appId,
      claim.key,
      claim.claim,
    ]);
  }

  /** Deletes the keys past their expiry, in batches; answers how many went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.sql.query<{ n: number }>(PRUNE);
      total += row!.n;
      if (row!.n < PRUNE_BATCH) return total;
    }
  }
}
