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
// distributed by `omni distribute` (distributeExisting), online, table by table.
import pg from 'pg';
import { rawSqlOf, type RawSql } from './database.ts';

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
async function colocationAnchor(sql: RawSql): Promise<string | undefined> {
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

function quoteIdent(name: string): string {
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
async function propagateFunctions(sql: RawSql, { strict = true }: { strict?: boolean } = {}) {
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

/**
 * Tables with fewer rows than this are distributed with their writes held for the moment their
 * rows are copied, rather than online: an online distribution (logical replication) takes some
 * seconds whatever the table's size.
 */
export const DEFAULT_ONLINE_FROM = 10_000;

/**
 * The tables of `tables` that a trigger of ours touches: those with triggers, and those named in
 * the text of one of our functions (what a trigger calls reads and writes them).
 */
async function triggerConnected(sql: RawSql, tables: readonly string[]): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>(
    `select t as name from unnest($1::text[]) as t
      where exists (select 1 from pg_trigger g where g.tgrelid = t::regclass and not g.tgisinternal)
         or exists (select 1 from pg_proc p
                     where p.pronamespace = 'public'::regnamespace and p.prosrc ~ ('\\m' || t || '\\M'))`,
    [tables],
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Runs `step` again when the database ended it as one side of a deadlock with the application's
 * writes (a wait for the same tables in another order): it is all one transaction, undone whole.
 */
async function retryingDeadlocks(report: (line: string) => void, step: () => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const deadlock =
        (error as { code?: string }).code === '40P01' ||
        /distributed deadlock/.test((error as Error).message);
      if (!deadlock || attempt === DEADLOCK_ATTEMPTS) throw error;
      report(`a deadlock with the application's writes undid the step; again (${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

const DEADLOCK_ATTEMPTS = 10;

async function isPartitioned(sql: RawSql, table: string): Promise<boolean> {
  const [row] = await sql.query<{ partitioned: boolean }>(
    "select relkind = 'p' as partitioned from pg_class where oid = $1::regclass",
    [table],
  );
  return row!.partitioned;
}

/** How many rows the table holds, counted up to `limit`. */
async function rowsUpTo(sql: RawSql, table: string, limit: number): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from ${quoteIdent(table)} limit $1) t`,
    [limit],
  );
  return row!.n;
}

export interface ExistingDistribution {
  reference: string[];
  /** Distributed while the database took writes (create_distributed_table_concurrently). */
  online: string[];
  /** Distributed with writes to the table blocked: where Citus has no online way. */
  blocking: string[];
  foreignKeys: number;
}

/**
 * Distributes a database that holds data and was never distributed (`omni distribute`): a
 * single PostgreSQL that became a Citus coordinator. Each step is its own transaction, as
 * create_distributed_table_concurrently must be; a run that stopped half-way is run again.
 *
 * 1. The extensions are made on the workers (they were made before Citus, which propagates only
 *    those made after it).
 * 2. Every foreign key between the public schema's tables is kept aside (in
 *    distribution_pending_keys) and dropped: Citus distributes no table that a local table still
 *    refers to, nor online one that refers to another. The application keeps writing meanwhile.
 * 3. The global tables become reference tables (each copied while its writes wait: they are
 *    small); then the tenant tables that no trigger of ours touches and that hold `onlineFrom`
 *    rows or more are distributed by tenant_id online, one at a time (their writes go on), and
 *    the others together in one transaction (their writes wait for it): a trigger reads and
 *    writes several tables, all of which must be distributed when it first runs on a worker.
 * 4. The foreign keys are made again (NOT VALID, then validated: no write waits for the check).
 * 5. The coordinator's copies of the rows that the blocking copies left, no longer read, are
 *    truncated.
 */
export async function distributeExisting(
  url: string,
  report: (line: string) => void,
  { onlineFrom = DEFAULT_ONLINE_FROM }: { onlineFrom?: number } = {},
): Promise<ExistingDistribution> {
  // One session for every step: a setting made for the next statement stays with it.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await distributeWith(sessionOf(client), report, onlineFrom);
  } finally {
    await client.end();
  }
}

interface Session extends RawSql {
  transaction<T>(fn: (sql: RawSql) => Promise<T>): Promise<T>;
}

function sessionOf(client: pg.Client): Session {
  const sql = rawSqlOf(client);
  return {
    ...sql,
    async transaction(fn) {
      await client.query('begin');
      try {
        const result = await fn(sql);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
  };
}

async function distributeWith(
  database: Session,
  report: (line: string) => void,
  onlineFrom: number,
): Promise<ExistingDistribution> {
  if (!(await hasCitus(database)))
    throw new Error('This database has no citus extension: there is nothing to distribute on.');
  const result: ExistingDistribution = { reference: [], online: [], blocking: [], foreignKeys: 0 };

  const extensions = await database.query<{ name: string }>(
    `select extname as name from pg_extension
      where extname not in ('plpgsql', 'citus', 'citus_columnar') order by extname`,
  );
  for (const { name } of extensions)
    await database.query(
      `select run_command_on_workers(format('set citus.enable_ddl_propagation to off; create extension if not exists %I cascade', $1::text))`,
      [name],
    );

  await database.transaction(async (sql) => {
    const keys = await sql.query<{ table: string; name: string; definition: string }>(
      `select k.conrelid::regclass::text as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
         from pg_constraint k
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace`,
    );
    for (const key of keys) {
      await sql.query(
        `insert into distribution_pending_keys (table_name, name, definition) values ($1, $2, $3)
         on conflict do nothing`,
        [key.table, key.name, key.definition],
      );
      await sql.exec(
        `alter table ${quoteIdent(key.table)} drop constraint ${quoteIdent(key.name)}`,
      );
    }
  });

  const pending = await pendingTables(database);
  for (const table of pending.reference) {
    await database.transaction(async (sql) => {
      await useCitusDdlSettings(sql);
      await sql.query('select create_reference_table($1)', [table]);
    });
    result.reference.push(table);
    report(`${table}: reference table`);
  }
  let anchor = await colocationAnchor(database);
  const connected = await triggerConnected(database, pending.distributed);
  const together: string[] = [];
  for (const table of pending.distributed) {
    const online =
      !connected.has(table) &&
      !(await isPartitioned(database, table)) &&
      (await rowsUpTo(database, table, onlineFrom)) >= onlineFrom;
    if (!online) {
      together.push(table);
      continue;
    }
    await database.query('set citus.enable_unsafe_triggers = on');
    await database.query(
      "select create_distributed_table_concurrently($1, 'tenant_id', colocate_with => $2)",
      [table, anchor ?? 'none'],
    );
    anchor ??= table;
    result.online.push(table);
    report(`${table}: distributed by tenant_id, online`);
  }
  // The rest in one transaction, its writes waiting for it: a trigger of one of these tables
  // reads or writes others of them, and from the moment its table is distributed it runs on the
  // workers, where a table not distributed yet does not exist.
  const first = anchor;
  await retryingDeadlocks(report, () =>
    database.transaction(async (sql) => {
      await useCitusDdlSettings(sql);
      // The rows copied into the shards are not writes of the application: the shards' triggers
      // must not record them again (events, search rows, counts). Replica sessions fire no
      // ordinary trigger; Citus gives the setting to its connections to the workers.
      await sql.query("set local citus.propagate_set_commands = 'local'");
      await sql.query('set local session_replication_role = replica');
      // Every table's writes held from the start (reads go on), so that a write under way cannot
      // hold one of them while it waits for another.
      await sql.exec(
        `lock table ${together.map(quoteIdent).join(', ')} in share row exclusive mode`,
      );
      let colocateWith = first;
      for (const table of together) {
        await sql.query("select create_distributed_table($1, 'tenant_id', colocate_with => $2)", [
          table,
          colocateWith ?? 'none',
        ]);
        colocateWith ??= table;
      }
      await propagateFunctions(sql);
    }),
  );
  result.blocking.push(...together);
  report(`${together.join(', ')}: distributed by tenant_id together, their writes held meanwhile`);

  const keys = await database.query<{ table: string; name: string; definition: string }>(
    'select table_name as table, name, definition from distribution_pending_keys order by 1, 2',
  );
  for (const key of keys) {
    await database.transaction(async (sql) => {
      await useCitusDdlSettings(sql);
      const exists = await sql.query(
        'select 1 from pg_constraint where conrelid = $1::regclass and conname = $2',
        [key.table, key.name],
      );
      if (exists.length === 0)
        await sql.exec(
          `alter table ${quoteIdent(key.table)} add constraint ${quoteIdent(key.name)} ${key.definition} not valid`,
        );
    });
    await database.transaction(async (sql) => {
      await useCitusDdlSettings(sql);
      await sql.exec(
        `alter table ${quoteIdent(key.table)} validate constraint ${quoteIdent(key.name)}`,
      );
      await sql.query('delete from distribution_pending_keys where table_name = $1 and name = $2', [
        key.table,
        key.name,
      ]);
    });
    result.foreignKeys++;
  }
  report(`${result.foreignKeys} foreign keys made again and validated`);
  // Only a table copied while its writes waited keeps its rows on the coordinator too (an online
  // distribution moves them; truncating after it would also drop what depends on the table's
  // row type).
  for (const table of [...result.reference, ...result.blocking])
    await database.query('select truncate_local_data_after_distributing_table($1)', [table]);
  // An online distribution leaves the table's former shard on the coordinator for Citus's
  // deferred cleanup; until its maintenance daemon gets to it (citus.defer_shard_delete_interval)
  // it is a plain table there, listed beside the application's own. Dropped now instead.
  await database.query('call citus_cleanup_orphaned_resources()');
  report("the coordinator's former local copies dropped");
  return result;
}

/** Whether the database has Citus and tenant tables that wait for `omni distribute`. */
export async function awaitsDistribution(sql: RawSql): Promise<boolean> {
  if (!(await hasCitus(sql))) return false;
  return !(await colocationAnchor(sql)) && (await pendingTables(sql)).distributed.length > 0;
}
