// Monthly partitions of change_history (UTC months: src/db/queries/monthly-partitions.ts, as the
// analytics logs have them). The release step and the daily job create the current month's and
// the coming months' ahead; a past month's partition that pruning emptied is dropped.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { monthlyPartitions } from '../../db/queries/monthly-partitions.ts';

const partitions = monthlyPartitions('change_history', 'changed_at');

/** Creates the partitions of `from`'s month and the `ahead` months after it; answers those made. */
export const ensureHistoryPartitions = (database: DatabaseHandle, from?: Date, ahead?: number) =>
  partitions.ensure(database, from, ahead);

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
  const current = partitions.partitionName(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const names = [...(await partitions.existingPartitions(database))]
    .filter((name) => partitions.isPartition(name) && name < current)
    .sort();
  const dropped: string[] = [];
  for (const name of names) {
    const gone = await database
      .rawTransaction(async (sql) => {
        await sql.query(`select ${partitions.lock}`);
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
