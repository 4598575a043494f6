// Sealing (docs/api.md, "Tamper evidence"): the triggers write entries in the writing transaction
// with seq and hash null, so that writes never wait on a tenant's chain head; every few seconds
// (HISTORY_SEAL_INTERVAL_MS) each instance seals the committed entries of each tenant in id order
// into its chain. A tenant's chain row is locked FOR UPDATE SKIP LOCKED: two instances never seal
// one tenant at once, and neither waits for the other. Every statement of a tenant's pass names
// its tenant_id (a router query on Citus); only the search for tenants with work spans shards.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import {
  CHAIN_COLUMNS,
  entryHash,
  storedColumns,
  type ChainHead,
  type StoredEntry,
} from './history-chain.ts';

export interface SealerOptions {
  intervalMs: number;
  /** Entries sealed per tenant and pass at most. */
  batch: number;
  log: () => FastifyBaseLogger | undefined;
}

/** Tenants one pass looks at most; a pass that finds this many runs again at once. */
const TENANTS_PER_PASS = 500;

export class HistorySealer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Set by stop(): not started, or stopping (a pass under way ends after its current tenant). */
  private stopped = true;
  private started = false;

  private readonly database: DatabaseHandle;
  private readonly options: SealerOptions;

  constructor(database: DatabaseHandle, options: SealerOptions) {
    this.database = database;
    this.options = options;
  }

  /**
   * Seals up to `limit` of the tenant's committed unsealed entries; answers how many. 0 as well
   * when another instance is sealing the tenant now.
   */
  async sealTenant(tenantId: number, limit = this.options.batch): Promise<number> {
    // Sealing records no event: its commits do not wake the webhook dispatcher.
    const quietly = { wakes: false };
    await this.database.rawTransaction(
      (sql) =>
        sql.query(
          'insert into change_history_chains (tenant_id) values ($1) on conflict (tenant_id) do nothing',
          [tenantId],
        ),
      quietly,
    );
    return this.database.rawTransaction(async (sql) => {
      const [head] = await sql.query<ChainHead>(
        `select ${CHAIN_COLUMNS} from change_history_chains where tenant_id = $1
           for update skip locked`,
        [tenantId],
      );
      if (!head) return 0;
      const entries = await sql.query<StoredEntry>(
        `select ${storedColumns()} from change_history
          where tenant_id = $1 and seq is null order by id limit $2`,
        [tenantId, limit],
      );
      if (entries.length === 0) return 0;
      let seq = head.sealedSeq;
      let hash = head.sealedHash;
      const seqs: number[] = [];
      const hashes: string[] = [];
      for (const entry of entries) {
        seq += 1;
        hash = entryHash({ ...entry, seq }, hash);
        seqs.push(seq);
        hashes.push(hash);
      }
      await sql.query(
        `update change_history h set seq = u.seq, hash = u.hash
           from unnest($2::timestamptz[], $3::bigint[], $4::bigint[], $5::text[])
                  as u (changed_at, id, seq, hash)
          where h.tenant_id = $1 and h.changed_at = u.changed_at and h.id = u.id and h.seq is null`,
        [tenantId, entries.map((e) => e.changedAt), entries.map((e) => e.id), seqs, hashes],
      );
      await sql.query(
        'update change_history_chains set sealed_seq = $2, sealed_hash = $3 where tenant_id = $1',
        [tenantId, seq, hash],
      );
      return entries.length;
    }, quietly);
  }

  /**
   * One pass over the tenants with unsealed entries; answers whether work is left (a tenant had
   * a full batch, or more tenants than a pass looks at).
   */
  async sealAll(): Promise<boolean> {
    const tenants = await this.database.query<{ tenantId: number }>(
      `select distinct tenant_id as "tenantId" from change_history where seq is null limit $1`,
      [TENANTS_PER_PASS],
    );
    let more = tenants.length === TENANTS_PER_PASS;
    for (const { tenantId } of tenants) {
      if (this.started && this.stopped) break;
      if ((await this.sealTenant(tenantId)) === this.options.batch) more = true;
    }
    return more;
  }

  start(): void {
    this.started = true;
    this.stopped = false;
    this.schedule(this.options.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.pass().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    let more = false;
    try {
      more = await this.sealAll();
    } catch (error) {
      // A database away for a moment: the next pass seals what this one did not.
      this.options.log()?.warn({ err: error }, 'sealing the change history failed; retrying');
    }
    this.schedule(more ? 0 : this.options.intervalMs);
  }
}
