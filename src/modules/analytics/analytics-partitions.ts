// Monthly partitions of analytics_logs (UTC months: src/db/queries/monthly-partitions.ts). The
// daily job creates the coming months ahead; old months can be detached by the operator.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { monthlyPartitions } from '../../db/queries/monthly-partitions.ts';

const partitions = monthlyPartitions('analytics_logs', 'created_at');

/** Creates the partitions of `from` and the `ahead` months after it; answers the ones created. */
export const ensurePartitions = (database: DatabaseHandle, from?: Date, ahead?: number) =>
  partitions.ensure(database, from, ahead);

/**
 * Detaches every monthly partition that ends on or before the start of `before` ("YYYY-MM");
 * the detached tables stay in the database for the operator to archive or drop.
 */
export async function detachPartitionsBefore(
  database: DatabaseHandle,
  before: string,
): Promise<string[]> {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(before);
  if (!match) throw new RangeError('--before must be a month, YYYY-MM');
  const limit = partitions.partitionName(Number(match[1]), Number(match[2]));
  return database.rawTransaction(async (sql) => {
    await sql.query(`select ${partitions.lock}`);
    const names = [...(await partitions.existingPartitions(sql))]
      .filter((name) => partitions.isPartition(name) && name < limit)
      .sort();
    for (const name of names)
      await sql.query(`alter table analytics_logs detach partition ${name}`);
    return names;
  });
}
