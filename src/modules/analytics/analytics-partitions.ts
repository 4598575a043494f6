// Monthly partitions of analytics_logs (UTC months). The daily job creates the coming months
// ahead; a row of a month without a partition lands in the DEFAULT partition and is moved into
// the month's partition when that is created. Old months can be detached by the operator.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';

const LOCK = "pg_advisory_xact_lock(hashtext('omni.analytics.partitions'))";

export const partitionName = (year: number, month: number) =>
  `analytics_logs_p${year}${String(month).padStart(2, '0')}`;

const monthStart = (year: number, month: number) =>
  `${year}-${String(month).padStart(2, '0')}-01 00:00:00+00`;

function addMonths(year: number, month: number, n: number): [number, number] {
  const index = year * 12 + (month - 1) + n;
  return [Math.floor(index / 12), (index % 12) + 1];
}

async function existingPartitions(sql: RawSql): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'analytics_logs'::regclass`,
  );
  return new Set(rows.map((r) => r.name));
}

/** Creates the partitions of `from` and the `ahead` months after it; answers the ones created. */
export async function ensurePartitions(
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
        `select exists (select 1 from analytics_logs_default
                         where created_at >= $1 and created_at < $2) as waiting`,
        [lower, upper],
      )) as [{ waiting: boolean }];
      if (waiting) {
        // Rows of this month arrived before its partition: they leave the default partition
        // for a moment (a partition may not be made while the default holds rows of its range)
        // and go back in through the parent, into the new partition. Through a temporary table
        // and plain statements, as Citus runs them: a table attached with rows in it is not
        // one Citus distributes with its rows.
        await sql.query(
          `create temporary table analytics_logs_moving on commit drop as
             select * from analytics_logs_default where created_at >= $1 and created_at < $2`,
          [lower, upper],
        );
        await sql.query(
          'delete from analytics_logs_default where created_at >= $1 and created_at < $2',
          [lower, upper],
        );
      }
      await sql.query(
        `create table ${name} partition of analytics_logs for values from ('${lower}') to ('${upper}')`,
      );
      if (waiting) {
        await sql.query('insert into analytics_logs select * from analytics_logs_moving');
        await sql.query('drop table analytics_logs_moving');
      }
      created.push(name);
    }
    return created;
  });
}

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
  const limit = partitionName(Number(match[1]), Number(match[2]));
  return database.rawTransaction(async (sql) => {
    await sql.query(`select ${LOCK}`);
    const names = [...(await existingPartitions(sql))]
      .filter((name) => /^analytics_logs_p\d{6}$/.test(name) && name < limit)
      .sort();
    for (const name of names)
      await sql.query(`alter table analytics_logs detach partition ${name}`);
    return names;
  });
}
