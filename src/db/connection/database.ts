// The one database handle the app uses: embedded PGlite by default, a node-postgres pool when
// DATABASE_URL is set. Both speak the same SQL, so modules never ask which one they got.
import pg from 'pg';
import { from as copyStreamFrom } from 'pg-copy-streams';
import { CommitNotifier } from './commit-notifier.ts';
import { CommitOutcomes, type CommitOutcome } from '../failover/commit-outcomes.ts';
import { isDatabaseUnavailable } from './connection-loss.ts';
import { changeContextStatements, currentChangeContext } from '../changes/change-context.ts';
import {
  listenWith,
  type ListenHandlers,
  type ListenOptions,
  type Unlisten,
} from './notification-listener.ts';
import { primaryFollowingOptions } from '../failover/primary-hosts.ts';

export type Engine = 'pglite' | 'postgres';

/** SQL with parameters: the database itself or an open transaction (docs/design.md, "Plain SQL"). */
export interface RawSql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** A hot statement: prepared once under this name (per connection on PostgreSQL). */
  prepared<Row = Record<string, unknown>>(
    name: string,
    text: string,
    params: unknown[],
  ): Promise<Row[]>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
}

export interface DatabaseHandle extends RawSql {
  engine: Engine;
  /** The connection string on PostgreSQL, for clients that open their own pool (pg-boss). */
  url: string | undefined;
  /** Runs a script of several statements and answers the rows of the last one. */
  execRows(script: string): Promise<unknown[]>;
  /**
   * Statements whose commit does not wait for the disk (`synchronous_commit = off`): visible to
   * every session at once, durable a fraction of a second later, or with the next ordinary commit
   * (the WAL is flushed in order). For bookkeeping written beside a request (Idempotency-Key
   * claims), where a synchronous commit would cost a disk flush (about 6 ms on a slow disk).
   * On PostgreSQL a small pool of its own; the embedded database runs them as any statement.
   */
  asyncCommit: RawSql;
  rawTransaction<T>(fn: (sql: RawSql) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Bulk-loads rows in binary COPY format (binary-copy.ts) into `target`, a table with its
   * column list, as one statement (its own transaction, committed when this resolves).
   * Answers the rows loaded.
   */
  copyFrom(target: string, data: Uint8Array): Promise<number>;
  /**
   * On a failover pair only: deletes the commit markers past their retention (commit-outcomes.ts),
   * answering how many went; what the scheduled job of commit-marker-pruning.ts runs.
   */
  pruneCommitMarkers?: () => Promise<number>;
  /**
   * Calls `handlers.notified` on every NOTIFY of `channel` by any session of the database
   * (notify_after_commit in a trigger: src/db/sql/015-notify-after-commit.sql). On PostgreSQL
   * through a connection of its own that is made again when lost (notification-listener.ts); on
   * the embedded database in process. Absent on wrappers that do not pass it on.
   */
  listen?(channel: string, handlers: ListenHandlers, options?: ListenOptions): Promise<Unlisten>;
  /**
   * Calls `listener` after each write of this process commits (a transaction, or a statement
   * that starts with insert, update, delete, merge or with), whatever it wrote; answers a
   * function that stops it. PostgreSQL only.
   */
  afterCommit?(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * false for bookkeeping that records no event (sealing the change history): its commit does not
   * call the afterCommit listeners, which wake the webhook dispatcher to search every shard.
   */
  wakes?: boolean;
}

/**
 * int8 read as PGlite reads it: a number when it is a safe integer (every id, count and position
 * the API answers: ids are bigint, and JSON integers below 2^53 on the wire), a bigint
 * beyond (a random transaction key). node-postgres reads it as a string by default; this way both
 * engines give the same values, and a bigint id goes out as a JSON integer.
 */
function int8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

type Parser = (value: string) => unknown;
/** pg's own parsers, by type OID (its typings take only the OIDs of its TypeId enum). */
const builtinParser = pg.types.getTypeParser as (oid: number, format?: string) => Parser;
const INT8 = 20;
const INT8_ARRAY = 1016;

/** The type parsers of every connection a handle opens: pg's own, int8 and int8[] as above. */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string): Parser => {
    if (format !== 'binary' && oid === INT8) return int8;
    if (format !== 'binary' && oid === INT8_ARRAY) {
      const texts = builtinParser(INT8_ARRAY, 'text');
      const parse = (entry: unknown): unknown =>
        Array.isArray(entry) ? entry.map(parse) : typeof entry === 'string' ? int8(entry) : entry;
      return (value) => parse(texts(value));
    }
    return builtinParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** How many connections the asyncCommit pool of a PostgreSQL handle opens at most. */
const ASYNC_COMMIT_POOL_SIZE = 4;

/** Statements on a pool, or on one connection (a transaction's client). */
export function rawSqlOf(pool: pg.Pool | pg.ClientBase): RawSql {
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as Row[];
    },
    async prepared<Row>(name: string, text: string, params: unknown[]) {
      return (await pool.query({ name, text, values: params })).rows as Row[];
    },
    async exec(script: string) {
      await pool.query(script);
    },
  };
}

/**
 * Every connection's settings. No JIT compilation: it pays off for long analytic queries, and
 * PostgreSQL starts it from the planner's cost estimate alone, which a search over a large
 * tenant exceeds (jit_above_cost) while running in tens of milliseconds: compiling it added
 * 150–350 ms to a 50 ms search statement at 1M items (docs/search-plans.md). And the NOTIFYs
 * that triggers ask for, asked as notices, which the pool sends once their transaction commits
 * (commit-notifier.ts); a pool opened without this setting announces nothing, and the listeners
 * find its writes when they poll.
 */
export const CONNECTION_OPTIONS = '-c jit=off -c omni.notify_after_commit=notice';

/** The connection settings of a pool made from settings rather than a URL (several hosts). */
function connectionOf(options: pg.PoolOptions): pg.ClientConfig {
  const { host, port, user, password, database, ssl } = options;
  return { host, port, user, password, database, ssl };
}

/**
 * What another pool or connection needs to connect as `pool` does: its URL, or its settings
 * and its Client (on a failover pair, the one that follows the primary).
 */
function sameConnectionAs(pool: pg.Pool, url: string | undefined): pg.PoolConfig {
  const options = pool.options;
  return {
    types: options.types ?? PG_TYPES,
    ...(options.Client === undefined || options.Client === pg.Client
      ? { connectionString: options.connectionString ?? url }
      : { ...connectionOf(options), Client: options.Client }),
    ...(options.connectionTimeoutMillis
      ? { connectionTimeoutMillis: options.connectionTimeoutMillis }
      : {}),
  };
}

/**
 * On a failover pair, a statement that writes is run in a transaction of its own, so that a lost
 * COMMIT answer can be settled (commit-outcomes.ts); a read runs as it is.
 */
export const WRITING_STATEMENT = /^\s*(insert|update|delete|merge|with)\b/i;

/** `outcomes`: on a failover pair, what settles a commit whose answer was lost (commit-outcomes.ts). */
export function wrapPool(pool: pg.Pool, url?: string, outcomes?: CommitOutcomes): DatabaseHandle {
  // Every handle reads int8 the same way, whoever made its pool (before its first connection).
  pool.options.types ??= PG_TYPES;
  // Opened on first use, with the same connection settings as the main pool.
  let asyncPool: pg.Pool | undefined;
  let asyncCommit: RawSql | undefined;
  const openAsyncPool = (): RawSql => {
    asyncPool = new pg.Pool({
      ...sameConnectionAs(pool, url),
      max: ASYNC_COMMIT_POOL_SIZE,
      options: `${CONNECTION_OPTIONS} -c synchronous_commit=off`,
    });
    // As for the main pool (openDatabase): a broken idle or checked-out connection must not
    // crash the process; the statement that meets it fails and is answered as unavailable.
    asyncPool.on('error', () => {});
    asyncPool.on('connect', (client) => client.on('error', () => {}));
    return rawSqlOf(asyncPool);
  };
  const openedAsyncCommit = () => (asyncCommit ??= openAsyncPool());
  const notifier = new CommitNotifier(openedAsyncCommit);
  notifier.watch(pool);
  const committedListeners = new Set<() => void>();
  const committed = () => {
    for (const listener of committedListeners) listener();
  };
  async function rawTransaction<T>(
    fn: (sql: RawSql) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    const client = await pool.connect();
    let result: T;
    let committing: string | undefined;
    try {
      const context = currentChangeContext();
      await client.query(context ? `begin; ${changeContextStatements(context)}` : 'begin');
      result = await fn(rawSqlOf(client));
      committing = await outcomes?.mark(client);
      await client.query('commit');
    } catch (error) {
      // A connection that cannot even roll back is broken: it leaves the pool instead of
      // failing the next transaction that borrows it.
      const broken = await client.query('rollback').then(
        () => false,
        () => true,
      );
      notifier.forget(client);
      client.release(broken);
      if (await committedDespite(error, committing)) return result!;
      throw error;
    }
    client.release();
    if (options.wakes !== false) committed();
    return result;
  }
  /** Whether a transaction whose COMMIT failed (`committing`: its marker) committed all the same. */
  const committedDespite = async (error: unknown, committing: string | undefined) =>
    committing !== undefined &&
    outcomes !== undefined &&
    isDatabaseUnavailable(error) &&
    (await outcomes.committed(committing));
  return {
    engine: 'postgres',
    url,
    get asyncCommit() {
      return openedAsyncCommit();
    },
    async execRows(script: string) {
      const result = (await pool.query(script)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as unknown[];
    },
    async query<Row>(text: string, params: unknown[] = []) {
      const writing = WRITING_STATEMENT.test(text);
      // A write names its actor (change-context.ts), which a transaction carries.
      if (writing && (outcomes || currentChangeContext()))
        return rawTransaction((sql) => sql.query<Row>(text, params));
      const result = await pool.query(text, params);
      if (writing) committed();
      return result.rows as Row[];
    },
    async prepared<Row>(name: string, text: string, params: unknown[]) {
      const writing = WRITING_STATEMENT.test(text);
      if (writing && (outcomes || currentChangeContext()))
        return rawTransaction((sql) => sql.prepared<Row>(name, text, params));
      const result = await pool.query({ name, text, values: params });
      if (writing) committed();
      return result.rows as Row[];
    },
    async exec(script: string) {
      await pool.query(script);
    },
    rawTransaction,
    async copyFrom(target: string, data: Uint8Array) {
      const client = await pool.connect();
      let failure: Error | undefined;
      let committing: string | undefined;
      let loaded = 0;
      try {
        // On a failover pair the COPY runs in a transaction of its own making, so that it is
        // marked before it commits; so does a COPY that names its actor (change-context.ts).
        const context = currentChangeContext();
        const inTransaction = outcomes !== undefined || context !== undefined;
        if (inTransaction)
          await client.query(context ? `begin; ${changeContextStatements(context)}` : 'begin');
        const stream = client.query(copyStreamFrom(`copy ${target} from stdin (format binary)`));
        // 'finish' comes after the server's ReadyForQuery, i.e. once the COPY has committed (or,
        // in a transaction, once it has run).
        await new Promise<void>((resolve, reject) => {
          stream.on('error', reject);
          stream.on('finish', resolve);
          stream.end(data);
        });
        loaded = stream.rowCount;
        if (inTransaction) {
          committing = await outcomes?.mark(client);
          await client.query('commit');
        }
        committed();
        return loaded;
      } catch (error) {
        failure = error as Error;
        if (await committedDespite(error, committing)) return loaded;
        throw error;
      } finally {
        // A connection whose COPY failed half-way is not trusted back into the pool.
        client.release(failure);
      }
    },
    ...(outcomes ? { pruneCommitMarkers: () => outcomes.prune() } : {}),
    listen(channel: string, handlers: ListenHandlers, options?: ListenOptions) {
      const Client = (pool.options.Client ?? pg.Client) as typeof pg.Client;
      const connect = () =>
        new Client({
          ...sameConnectionAs(pool, url),
          // Named, so that pg_stat_activity tells it from the pool's connections.
          application_name: `omni listen ${channel}`,
          // A host that vanishes without closing the connection is noticed in minutes, not hours.
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000,
        });
      return Promise.resolve(listenWith(connect, channel, handlers, options));
    },
    afterCommit(listener: () => void) {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
    async close() {
      await Promise.all([pool.end(), asyncPool?.end()]);
    },
  };
}

/** How long a pooled connection may take to open before the query fails as unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
  /**
   * On a failover pair: how long a write whose COMMIT lost its answer waits for a primary to say
   * whether it committed (commit-outcomes.ts); 0 answers it as unavailable at once.
   */
  commitOutcomeWaitSeconds?: number;
  /**
   * On a failover pair: the pg_auto_failover monitor's database, asked before writing to a node
   * newly connected to (failover-monitor.ts); unset, the node that takes writes is written to.
   */
  databaseMonitorUrl?: string;
  /** Told what became of each commit whose answer was lost (a failover pair only). */
  onCommitOutcome?: (outcome: CommitOutcome) => void;
  /**
   * Told of failures that no query is waiting for: an idle pooled connection that broke, or the
   * embedded database's lock lost to another process (after which the caller must stop).
   */
  onBackgroundError?: (error: Error, what: 'pool' | 'lock' | 'monitor') => void;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Several hosts (a failover pair): connections go to the one that takes writes.
    const following = primaryFollowingOptions(options.databaseUrl, options.databaseMonitorUrl, () =>
      options.onBackgroundError?.(
        new Error('the failover monitor did not answer; writing to the node that takes writes'),
        'monitor',
      ),
    );
    if (following) await following.locator.find(CONNECT_TIMEOUT_MS * 2);
    const pool = new pg.Pool({
      ...(following
        ? { ...following.connection, Client: following.Client }
        : { connectionString: options.databaseUrl }),
      max: options.poolSize ?? 10,
      types: PG_TYPES,
      // While the database is unreachable a request fails (503) instead of waiting forever.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      options: CONNECTION_OPTIONS,
    });
    // A pool error on an idle client must not crash the process (the next query reconnects), and
    // must not go unseen either.
    pool.on('error', (error) => options.onBackgroundError?.(error, 'pool'));
    // A connection lost while checked out (inside a transaction, between its statements) emits
    // 'error' on its client, which the pool does not listen to then: unheard, it would crash the
    // process. The statement that was running, or the next one, fails with the same error and
    // becomes the request's 503, so this listener has nothing to add.
    pool.on('connect', (client) => client.on('error', () => {}));
    await pool.query('select 1');
    const outcomes =
      following && (options.commitOutcomeWaitSeconds ?? 0) > 0
        ? new CommitOutcomes(pool, options.commitOutcomeWaitSeconds! * 1000, (outcome) =>
            options.onCommitOutcome?.(outcome),
          )
        : undefined;
    return wrapPool(pool, options.databaseUrl, outcomes);
  }
  // PGlite is loaded only for the embedded database: a server on PostgreSQL keeps its memory.
  const { openEmbeddedDatabase } = await import('./embedded-database.ts');
  return openEmbeddedDatabase(options.dataDir, (error) =>
    options.onBackgroundError?.(error, 'lock'),
  );
}
