// Retention of the change history (docs/api.md, "Retention"): each tenant keeps its entries for
// its RetentionDays (HISTORY_RETENTION_DAYS unless it set its own). The daily job prunes each
// tenant's older entries in small batches, each a short transaction, from the start of its chain:
// only a prefix of the chain is ever pruned, and the chain remembers the last pruned entry's place
// and hash, so that verification starts from the oldest kept entry. An old entry sealed after a
// newer one waits for it (a day at most beyond its retention, for a transaction open that long).
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { CHAIN_COLUMNS, type ChainHead } from './history-chain.ts';

export interface RetentionSetting {
  RetentionDays: number;
  version: number;
}

/** Entries one pruning transaction deletes at most. */
const PRUNE_BATCH = 500;

const DAY_MS = 86_400_000;

export class HistoryRetention {
  private readonly database: DatabaseHandle;
  private readonly defaultDays: number;

  constructor(database: DatabaseHandle, defaultDays: number) {
    this.database = database;
    this.defaultDays = defaultDays;
  }

  async setting(tenantId: number): Promise<RetentionSetting> {
    const [row] = await this.database.query<{ days: number; version: number }>(
      'select retention_days as days, version from change_history_settings where tenant_id = $1',
      [tenantId],
    );
    return { RetentionDays: row?.days ?? this.defaultDays, version: row?.version ?? 0 };
  }

  /** Sets the tenant's own retention; `check` throws when If-Match names another version. */
  async putSetting(
    tenantId: number,
    days: number,
    check: (version: number) => void,
  ): Promise<RetentionSetting> {
    return this.database.rawTransaction(async (sql) => {
      const [current] = await sql.query<{ version: number }>(
        'select version from change_history_settings where tenant_id = $1 for update',
        [tenantId],
      );
      check(current?.version ?? 0);
      const [row] = await sql.query<{ version: number }>(
        `insert into change_history_settings (tenant_id, retention_days) values ($1, $2)
         on conflict (tenant_id) do update
           set retention_days = excluded.retention_days,
               version = change_history_settings.version + 1
         returning version`,
        [tenantId, days],
      );
      return { RetentionDays: days, version: row!.version };
    });
  }

  /** Deletes the tenant's sealed entries older than `cutoff`, batch by batch; answers how many. */
  async pruneTenant(tenantId: number, cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const { pruned, more } = await this.database.rawTransaction(async (sql) => {
        const none = { pruned: 0, more: false };
        const [head] = await sql.query<ChainHead>(
          `select ${CHAIN_COLUMNS} from change_history_chains where tenant_id = $1 for update`,
          [tenantId],
        );
        if (!head) return none;
        const rows = await sql.query<{ seq: number; hash: string; expired: boolean }>(
          `select seq, hash, changed_at < $3 as expired from change_history
            where tenant_id = $1 and seq is not null and seq > $2 order by seq limit $4`,
          [tenantId, head.prunedSeq, cutoff, PRUNE_BATCH],
        );
        // Up to the first kept entry, or the first gap: a deleted entry stays for verify to name.
        const kept = rows.findIndex((r, i) => !r.expired || r.seq !== head.prunedSeq + i + 1);
        const prefix = kept === -1 ? rows : rows.slice(0, kept);
        const last = prefix.at(-1);
        if (!last) return none;
        // By place: the prefix is every entry from the last pruned one's place to this one's,
        // as verification walks them.
        await sql.query(
          'delete from change_history where tenant_id = $1 and seq > $2 and seq <= $3',
          [tenantId, head.prunedSeq, last.seq],
        );
        await sql.query(
          'update change_history_chains set pruned_seq = $2, pruned_hash = $3 where tenant_id = $1',
          [tenantId, last.seq, last.hash],
        );
        // A full batch of expired entries: more may follow; else the tenant is done.
        return { pruned: prefix.length, more: prefix.length === PRUNE_BATCH };
      });
      total += pruned;
      if (!more) return total;
    }
  }

  /** Prunes every tenant with a chain, each by its retention; answers the entries pruned. */
  async pruneAll(now: Date = new Date()): Promise<number> {
    const tenants = await this.database.query<{ tenantId: number; days: number | null }>(
      `select c.tenant_id as "tenantId", s.retention_days as days
         from change_history_chains c
         left join change_history_settings s on s.tenant_id = c.tenant_id`,
    );
    let total = 0;
    for (const { tenantId, days } of tenants)
      total += await this.pruneTenant(
        tenantId,
        new Date(now.getTime() - (days ?? this.defaultDays) * DAY_MS),
      );
    return total;
  }
}
