// Deferring a transaction's deferrable constraints (`set constraints all deferred`) for writes of
// one tenant that insert rows before the rows they refer to, or delete in an order the
// references do not follow. On Citus the constraints are checked on the worker that holds the
// tenant's shards, and `set constraints` on the coordinator does not reach it; a statement routed
// to the tenant's shard group that runs defer_constraints (src/db/sql/040-deferred-constraints.sql)
// defers them there, on the connection the transaction's later statements to that shard group
// use. On one server it is the same command.
import type { RawSql } from '../connection/database.ts';

/**
 * Defers the transaction's deferrable constraints where the tenant's rows are: through `table`
 * (a table with tenant_id the caller owns), or, without one, through any table distributed by
 * tenant_id (on a single server, `set constraints` alone).
 */
export async function deferConstraints(sql: RawSql, tenantId: number, table?: string) {
  const through = table ?? (await distributedTable(sql));
  if (!through) {
    await sql.query('set constraints all deferred');
    return;
  }
  // An aggregate without GROUP BY answers one row even when no row matches, so HAVING runs the
  // function exactly once; no row has the tid (0,0), and asking costs one page at most.
  await sql.query(
    `select count(*) from ${through} where tenant_id = $1 and ctid = '(0,0)'::tid having defer_constraints()`,
    [tenantId],
  );
}

/** A table distributed by tenant_id on Citus; none elsewhere. */
async function distributedTable(sql: RawSql): Promise<string | undefined> {
  const [citus] = await sql.query<{ found: boolean }>(
    "select to_regclass('pg_catalog.pg_dist_partition') is not null as found",
  );
  if (!citus!.found) return undefined;
  const [row] = await sql.query<{ name: string }>(
    `select logicalrelid::regclass::text as name from pg_dist_partition
      where partmethod = 'h' order by colocationid, logicalrelid limit 1`,
  );
  return row?.name;
}
