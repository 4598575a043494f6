// A table partitioned by UTC month on a timestamp column, with a DEFAULT partition (the analytics
// logs, the change history): each module names its table, and the partitions are made, listed
// and named here alike. A row of a month without a partition lands in the DEFAULT partition and
// is moved into the month's partition when that is created.
import type { DatabaseHandle, RawSql } from '../connection/database.ts';

export interface MonthlyPartitions {
  /** The transaction-scoped advisory lock that every change of the partitions takes first. */
  lock: string;
  /** The partition of a month: `<table>_pYYYYMM`. */
  partitionName(year: number, month: number): string;
  /** Whether a table name is one of the monthly partitions. */
  isPartition(name: string): boolean;
  existingPartitions(sql: RawSql): Promise<Set<string>>;
  /** Creates the partitions of `from`'s month and the `ahead` months after it; answers those made. */
  ensure(database: DatabaseHandle, from?: Date, ahead?: number): Promise<string[]>;
}

const monthStart = (year: number, month: number) =>
  `${year}-${String(month).padStart(2, '0')}-01 00:00:00+00`;

function addMonths(year: number, month: number, n: number): [number, number] {
  const index = year * 12 + (month - 1) + n;
  return [Math.floor(index / 12), (index % 12) + 1];
}

/** How a month's partition name ends (`_pYYYYMM`), as a regular expression for SQL and for JS. */
export const MONTH_PARTITION_SUFFIX = '_p[0-9]{6}';

/** The monthly partitions of `table` (a plain identifier) on `column`. */
export function monthlyPartitions(table: string, column: string): MonthlyPartitions {
  const lock = `pg_advisory_xact_lock(hashtext('omni.${table}.partitions'))`;
  const partitionName = (year: number, month: number) =>
    `${table}_p${year}${String(month).padStart(2, '0')}`;
  const pattern = new RegExp(`^${table}${MONTH_PARTITION_SUFFIX}$`);
  const existingPartitions = async (sql: RawSql) => {
    const rows = await sql.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = '${table}'::regclass`,
    );
    return new Set(rows.map((r) => r.name));
  };
  const months = (from: Date, ahead: number) =>
    Array.from({ length: ahead + 1 }, (_, n) =>
      addMonths(from.getUTCFullYear(), from.getUTCMonth() + 1, n),
    );
  const create = (database: DatabaseHandle, from: Date, ahead: number) =>
    database.rawTransaction(async (sql) => {
      await sql.query(`select ${lock}`);
      const existing = await existingPartitions(sql);
      const created: string[] = [];
      for (const [year, month] of months(from, ahead)) {
        const name = partitionName(year, month);
        if (existing.has(name)) continue;
        const [nextYear, nextMonth] = addMonths(year, month, 1);
        const lower = monthStart(year, month);
        const upper = monthStart(nextYear, nextMonth);
        const [{ waiting }] = (await sql.query<{ waiting: boolean }>(
          `select exists (select 1 from ${table}_default
                           where ${column} >= $1 and ${column} < $2) as waiting`,
          [lower, upper],
        )) as [{ waiting: boolean }];
        if (waiting) {
          // Rows of this month arrived before its partition: they leave the default partition
          // for a moment (a partition may not be made while the default holds rows of its range)
          // and go back in through the parent, into the new partition. Through a temporary table
          // and plain statements, as Citus runs them: a table attached with rows in it is not
          // one Citus distributes with its rows.
          await sql.query(
            `create temporary table ${table}_moving on commit drop as
               select * from ${table}_default where ${column} >= $1 and ${column} < $2`,
            [lower, upper],
          );
          await sql.query(`delete from ${table}_default where ${column} >= $1 and ${column} < $2`, [
            lower,
            upper,
          ]);
        }
        await sql.query(
          `create table ${name} partition of ${table} for values from ('${lower}') to ('${upper}')`,
        );
        if (waiting) {
          await sql.query(`insert into ${table} select * from ${table}_moving`);
          await sql.query(`drop table ${table}_moving`);
        }
        created.push(name);
      }
      return created;
    });
  const ensure = async (database: DatabaseHandle, from: Date = new Date(), ahead = 3) => {
    // Mostly every month is there already: a read, no lock and no DDL (a start's case).
    const existing = await existingPartitions(database);
    if (months(from, ahead).every(([y, m]) => existing.has(partitionName(y, m)))) return [];
    for (let attempt = 1; ; attempt++) {
      try {
        return await create(database, from, ahead);
      } catch (error) {
        // 40P01: on Citus, a partition made while writers hold the default's shards can be the
        // victim of a distributed deadlock; what the other side committed is seen on the retry.
        if ((error as { code?: string }).code !== '40P01' || attempt === 3) throw error;
      }
    }
  };
  return {
    lock,
    partitionName,
    isPartition: (name) => pattern.test(name),
    existingPartitions,
    ensure,
  };
}
