// Monthly partitions of change_history (UTC months), as analytics_logs has them
// (src/modules/analytics/analytics-partitions.ts, whose approach this copies: modules share no
// files). The release step and the daily job create the current month's and the coming months'
// ahead; a row of a month without a partition lands in the DEFAULT partition and is moved into
// the month's partition when that is created. A past month's partition that pruning emptied is
// dropped.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';

const LOCK = "pg_advisory_xact_lock(hashtext('omni.history.partitions'))";
const NAME = /^change_history_p(\d{4})(\d{2})$/;

export const partitionName = (year: number, month: number) =>
  `change_history_p${year}${String(month).padStart(2, '0')}`;

const monthStart = (year: number, month: number) =>
  `${year}-${String(month).padStart(2, '0')}-01 00:00:00+00`;

function addMonths(year: number, month: number, n: number): [number, number] {
  const index = year * 12 + (month - 1) + n;
  return [Math.floor(index / 12), (index % 12) + 1];
}

async function existingPartitions(sql: RawSql): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'change_history'::regclass`,
  );
  return new Set(rows.map((r) => r.name));
}

/** Creates the partitions of `from`'s month and the `ahead` months after it; answers those made. */
export async function ensureHistoryPartitions(
  database: DatabaseHandle,
  from: Date = new Date(),
  ahead = 3,
): Promise<string[]> {
  return database.rawTransaction(async (sql) => {
    await sql.query(`select ${LOCK}`);
    const existing = await existingPartitions(sql);
    const created: string[] = [];
    for (let n = 0; n <= ahead; n++) {
      const [year, month] = addMonths(from.getUTCFullYear(), from.getUTCMonth() + 1, n);
      const name = partitionName(year, month);
      if (existing.has(name)) continue;
      const [nextYear, nextMonth] = addMonths(year, month, 1);
      const lower = monthStart(year, month);
      const upper = monthStart(nextYear, nextMonth);
      const [{ waiting }] = (await sql.query<{ waiting: boolean }>(
        `select exists (select 1 from change_history_default
                         where changed_at >= $1 and changed_at < $2) as waiting`,
        [lower, upper],
      )) as [{ waiting: boolean }];
      if (waiting) {
        // As for the analytics logs: the month's rows leave the default partition for a moment
        // (a partition may not be made while the default holds rows of its range) and go back
        // through the parent, with their ids, places and hashes, into the new partition.
        await sql.query(
          `create temporary table change_history_moving on commit drop as
             select * from change_history_default where changed_at >= $1 and changed_at < $2`,
          [lower, upper],
        );
        await sql.query(
          'delete from change_history_default where changed_at >= $1 and changed_at < $2',
          [lower, upper],
        );
      }
      await sql.query(
        `create table ${name} partition of change_history for values from ('${lower}') to ('${upper}')`,
      );
      if (waiting) {
        await sql.query('insert into change_history select * from change_history_moving');
        await sql.query('drop table change_history_moving');
      }
      created.push(name);
    }
    return created;
  });
}

/**
 * Drops the monthly partitions of months that ended before `now`'s and hold no entry (pruning
 * emptied them row by row); answers those dropped. Each is locked first, so that a transaction
 * that began in its month and writes to it still is either waited for (and the partition, no
 * longer empty, kept) or finds it gone; a lock not had within a few seconds leaves it to the
 * next day.
 */
export async function dropEmptyHistoryPartitions(
  database: DatabaseHandle,
  now: Date = new Date(),
): Promise<string[]> {
  const current = partitionName(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const names = [...(await existingPartitions(database))]
    .filter((name) => NAME.test(name) && name < current)
    .sort();
  const dropped: string[] = [];
  for (const name of names) {
    const gone = await database
      .rawTransaction(async (sql) => {
        await sql.query(`select ${LOCK}`);
        await sql.query("set local lock_timeout = '5s'");
        await sql.query(`lock table ${name} in access exclusive mode`);
        const [row] = await sql.query<{ empty: boolean }>(
          `select not exists (select 1 from ${name}) as empty`,
        );
        if (!row!.empty) return false;
        await sql.query(`drop table ${name}`);
        return true;
      })
      .catch((error: unknown) => {
        // 55P03 lock_not_available: still written to; the next day tries again.
        if ((error as { code?: string }).code === '55P03') return false;
        throw error;
      });
    if (gone) dropped.push(name);
  }
  return dropped;
}
