// The schema on a Citus cluster (docs/operations.md, "Citus"; docs/design.md, "Citus"): on a
// database with the citus extension, every table with tenant_id is distributed by it, all in one
// colocation group (a tenant's rows of every table live on the same worker, so each request's
// statements go to one shard group); every other table of the public schema becomes a reference
// table (a copy on every node), except those named in coordinator_local_tables, which stay on
// the coordinator. pg-boss's own schema stays on the coordinator too. On any other database
// nothing here runs.
//
// A fresh database is distributed by the migration that made it (distributeNewTables, in the
// migrations' transaction), and so is each table a later migration adds. A database that holds
// data and was never distributed (a single PostgreSQL that became a Citus coordinator) is
// distributed by `omni distribute` (distribute-existing.ts), online, table by table.
import type { RawSql } from '../connection/database.ts';

export interface PendingTables {
  /** Global tables to become reference tables. */
  reference: string[];
  /** Tables with tenant_id, in an order where a table comes after those it refers to. */
  distributed: string[];
}

/**
 * The settings of a transaction that changes a Citus schema: one shard at a time (a transaction
 * may not switch from Citus's parallel shard connections to sequential ones, which distributing
 * a table needs), and triggers allowed on distributed tables (ours are written to run on the
 * shards: src/db/sql/020-event-feed.sql).
 */
export async function useCitusDdlSettings(sql: RawSql): Promise<void> {
  await sql.query("set local citus.multi_shard_modify_mode = 'sequential'");
  await sql.query('set local citus.enable_unsafe_triggers = on');
}

/** Whether the database has the citus extension (its tables may be distributed). */
export async function hasCitus(sql: RawSql): Promise<boolean> {
  const [row] = await sql.query<{ found: boolean }>(
    "select exists (select 1 from pg_extension where extname = 'citus') as found",
  );
  return row!.found;
}

/**
 * The public schema's tables that are not distributed or reference tables yet (a table Citus
 * made "local" for a foreign key to a reference table counts as not yet), by what they become.
 */
export async function pendingTables(sql: RawSql): Promise<PendingTables> {
  const rows = await sql.query<{ name: string; tenant: boolean; depth: number }>(
    `with recursive candidates as (
       select c.oid, c.relname::text as name,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id'
                        and not a.attisdropped) as tenant
         from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
          and c.relname not in (select table_name from coordinator_local_tables)
          and not exists (select 1 from pg_dist_partition p
                           where p.logicalrelid = c.oid and (p.partmethod = 'h' or p.repmodel = 't'))),
     depths as (
       select oid, 0 as depth from candidates
       union all
       select k.conrelid, d.depth + 1 from depths d
         join pg_constraint k on k.contype = 'f' and k.confrelid = d.oid and k.conrelid <> d.oid
         join candidates c on c.oid = k.conrelid)
     select c.name, c.tenant, max(d.depth) as depth from candidates c join depths d on d.oid = c.oid
      group by c.name, c.tenant order by max(d.depth), c.name`,
  );
  return {
    reference: rows.filter((r) => !r.tenant).map((r) => r.name),
    distributed: rows.filter((r) => r.tenant).map((r) => r.name),
  };
}

/** A distributed table to colocate new ones with (any: they all share one group). */
export async function colocationAnchor(sql: RawSql): Promise<string | undefined> {
  const [row] = await sql.query<{ name: string }>(
    `select c.relname as name from pg_dist_partition p join pg_class c on c.oid = p.logicalrelid
      where p.partmethod = 'h' and c.relnamespace = 'public'::regnamespace and not c.relispartition
      order by p.colocationid, c.relname limit 1`,
  );
  return row?.name;
}

/** Whether any of the tables holds a row. */
async function holdsRows(sql: RawSql, tables: readonly string[]): Promise<boolean> {
  for (const table of tables) {
    const [row] = await sql.query<{ found: boolean }>(
      `select exists (select 1 from ${quoteIdent(table)}) as found`,
    );
    if (row!.found) return true;
  }
  return false;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Foreign keys from the pending tables to the global tables about to become reference tables:
 * Citus would turn a table that holds one into a "Citus local" table as the referenced table
 * becomes a reference table, and such a table cannot be distributed if it has an identity
 * column. They are dropped first and made again once both sides are distributed.
 */
async function keysToGlobalTables(
  sql: RawSql,
  pending: PendingTables,
): Promise<{ table: string; name: string; definition: string }[]> {
  if (pending.reference.length === 0) return [];
  return sql.query(
    `select k.conrelid::regclass::text as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
       from pg_constraint k
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace
        and k.confrelid::regclass::text = any($1::text[]) and k.conrelid <> k.confrelid
        -- A partition's key is its parent's: it goes and comes back with it.
        and k.conparentid = 0
      order by 1, 2`,
    [pending.reference],
  );
}

/** The public schema's own functions (not an extension's) that the workers do not have yet. */
async function functionsToPropagate(sql: RawSql): Promise<string[]> {
  const rows = await sql.query<{ signature: string }>(
    `select p.oid::regprocedure::text as signature from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
                          and d.objid = p.oid and d.deptype = 'e')
        and not exists (select 1 from pg_dist_object o where o.classid = 'pg_proc'::regclass
                          and o.objid = p.oid)
      order by 1`,
  );
  return rows.map((r) => r.signature);
}

export interface DistributionResult {
  /** The tables distributed or made reference tables by this call. */
  distributed: string[];
  reference: string[];
  /**
   * Tables left as they are because the database holds data and was never distributed: they
   * wait for `omni distribute`.
   */
  waiting: string[];
}

/**
 * Distributes the tables that are not distributed yet, in the caller's transaction, unless the
 * database holds data and was never distributed (then it changes nothing and answers the tables
 * that wait for `omni distribute`). On a database without Citus it does nothing.
 */
export async function distributeNewTables(sql: RawSql): Promise<DistributionResult> {
  const none: DistributionResult = { distributed: [], reference: [], waiting: [] };
  if (!(await hasCitus(sql))) return none;
  const pending = await pendingTables(sql);
  const anchor = await colocationAnchor(sql);
  if (pending.distributed.length === 0 && pending.reference.length === 0) {
    await propagateFunctions(sql);
    return none;
  }
  // Global tables hold rows from the start (the migrations' own, a secret): tenant data tells a
  // database in use.
  if (!anchor && (await holdsRows(sql, pending.distributed)))
    return { ...none, waiting: [...pending.reference, ...pending.distributed] };
  await useCitusDdlSettings(sql);
  const keys = await keysToGlobalTables(sql, pending);
  for (const key of keys)
    await sql.exec(`alter table ${quoteIdent(key.table)} drop constraint ${quoteIdent(key.name)}`);
  for (const table of pending.reference)
    await sql.query('select create_reference_table($1)', [table]);
  for (const [i, table] of pending.distributed.entries())
    await sql.query("select create_distributed_table($1, 'tenant_id', colocate_with => $2)", [
      table,
      anchor ?? (i === 0 ? 'none' : pending.distributed[0]),
    ]);
  for (const key of keys)
    await sql.exec(
      `alter table ${quoteIdent(key.table)} add constraint ${quoteIdent(key.name)} ${key.definition}`,
    );
  await propagateFunctions(sql);
  return { ...none, distributed: pending.distributed, reference: pending.reference };
}

/**
 * Makes every function of ours known on the workers: triggers run there, shard by shard, and call
 * functions that Citus does not see as the tables' dependencies. A SQL function's body is checked
 * where it is made, so one that calls another goes after it: each round makes those it can (each
 * in a savepoint) until a round makes none — then, unless `strict` is false, the first failure
 * is thrown.
 */
export async function propagateFunctions(
  sql: RawSql,
  { strict = true }: { strict?: boolean } = {},
) {
  let pending = await functionsToPropagate(sql);
  while (pending.length > 0) {
    const failed: { signature: string; error: unknown }[] = [];
    for (const signature of pending) {
      await sql.query('savepoint propagate_function');
      try {
        await sql.query('select create_distributed_function($1)', [signature]);
        await sql.query('release savepoint propagate_function');
      } catch (error) {
        await sql.query('rollback to savepoint propagate_function');
        failed.push({ signature, error });
      }
    }
    if (failed.length === pending.length) {
      if (strict) throw failed[0]!.error;
      return;
    }
    pending = failed.map((f) => f.signature);
  }
}

/** Whether the database has Citus and tenant tables that wait for `omni distribute`. */
export async function awaitsDistribution(sql: RawSql): Promise<boolean> {
  if (!(await hasCitus(sql))) return false;
  return !(await colocationAnchor(sql)) && (await pendingTables(sql)).distributed.length > 0;
}
