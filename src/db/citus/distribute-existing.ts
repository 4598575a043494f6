// `omni distribute`: a database that holds data and was never distributed (a single PostgreSQL
// that became a Citus coordinator) is distributed online, table by table (docs/operations.md,
// "Citus"); the rules of what is distributed how are distribution.ts's.
import pg from 'pg';
import { rawSqlOf, type RawSql } from '../connection/database.ts';
import {
  colocationAnchor,
  hasCitus,
  pendingTables,
  propagateFunctions,
  quoteIdent,
  useCitusDdlSettings,
} from './distribution.ts';

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

/**
 * The distributed and reference tables whose coordinator copy still holds the rows it had before
 * they were copied into the shards (a partitioned table by its partitions).
 */
async function withLocalCopies(sql: RawSql): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `select c.oid::regclass::text as name
       from pg_dist_partition p join pg_class c on c.oid = p.logicalrelid
      where c.relnamespace = 'public'::regnamespace and not c.relispartition
        and (p.partmethod = 'h' or p.repmodel = 't')
        and exists (select 1 from pg_partition_tree(c.oid) t where pg_relation_size(t.relid) > 0)
      order by 1`,
  );
  return rows.map((row) => row.name);
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

  // What an online distribution of a run stopped after it left for Citus's deferred cleanup (the
  // table's former copy, a plain table beside the application's own) goes first: it is no table
  // to distribute.
  await database.query('call citus_cleanup_orphaned_resources()');
  // A run again after the tables were distributed drops nothing: the keys made again are kept.
  const pending = await pendingTables(database);
  const undistributed = pending.reference.length + pending.distributed.length > 0;
  if (undistributed)
    await database.transaction(async (sql) => {
      const keys = await sql.query<{ table: string; name: string; definition: string }>(
        `select k.conrelid::regclass::text as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
         from pg_constraint k
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace
          -- A partition's copy of its parent's key goes and comes back with the parent's.
          and k.conparentid = 0`,
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
  if (together.length > 0) {
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
    report(
      `${together.join(', ')}: distributed by tenant_id together, their writes held meanwhile`,
    );
  }

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
      // A partitioned table's key cannot be made NOT VALID: it is made and checked at once.
      const validLater = !(await isPartitioned(sql, key.table));
      if (exists.length === 0)
        await sql.exec(
          `alter table ${quoteIdent(key.table)} add constraint ${quoteIdent(key.name)} ${key.definition}${validLater ? ' not valid' : ''}`,
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
  // row type). Found by their size, so that a run again after a stop finds those of the earlier
  // run.
  for (const table of await withLocalCopies(database))
    await database.query('select truncate_local_data_after_distributing_table($1)', [table]);
  // An online distribution leaves the table's former shard on the coordinator for Citus's
  // deferred cleanup; until its maintenance daemon gets to it (citus.defer_shard_delete_interval)
  // it is a plain table there, listed beside the application's own. Dropped now instead.
  await database.query('call citus_cleanup_orphaned_resources()');
  report("the coordinator's former local copies dropped");
  return result;
}
