// A fresh, migrated database for one test file, from the run's snapshot (see global-setup).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  CONNECTION_OPTIONS,
  wrapPool,
  type DatabaseHandle,
  type RawSql,
} from '../../src/db/connection/database.ts';
import { PGLITE_EXTENSIONS, wrapPglite } from '../../src/db/connection/embedded-database.ts';
import { createClusterDatabase, dropClusterDatabase, type ClusterNode } from './citus-cluster.ts';
import { databaseUrlFor } from './database-url.ts';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** For tests that start a server process on the same database (PostgreSQL only). */
  url: string | undefined;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const opened = await openDatabaseOfRun();
  return process.env.TEST_LOG_ERRORS === '1'
    ? { ...opened, handle: loggingFailures(opened.handle) }
    : opened;
}

/**
 * With TEST_LOG_ERRORS=1, every statement that fails is written to stderr with its error (to find
 * the statement behind a 500).
 */
function loggingFailures(handle: DatabaseHandle): DatabaseHandle {
  const logged = <T>(text: string, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`statement failed: ${message}: ${text.replace(/\s+/g, ' ')}\n`);
      throw error;
    });
  const wrap = (sql: RawSql): RawSql => ({
    query: (text, params) => logged(text, () => sql.query(text, params)),
    prepared: (name, text, params) => logged(text, () => sql.prepared(name, text, params)),
    exec: (script) => logged(script, () => sql.exec(script)),
  });
  return {
    ...handle,
    ...wrap(handle),
    get asyncCommit() {
      return wrap(handle.asyncCommit);
    },
    rawTransaction: (fn, options) => handle.rawTransaction((sql) => fn(wrap(sql)), options),
    execRows: (script) => logged(script, () => handle.execRows(script)),
    copyFrom: (target, data) => handle.copyFrom(target, data),
    close: () => handle.close(),
  };
}

async function openDatabaseOfRun(): Promise<TestDatabase> {
  const source = inject('testDatabase');
  if (source.engine === 'pglite') {
    const snapshot = new Blob([await readFile(source.snapshotPath)]);
    const client = new PGlite({ loadDataDir: snapshot, extensions: PGLITE_EXTENSIONS });
    await client.waitReady;
    return { handle: wrapPglite(client), url: undefined };
  }
  return openPostgresDatabase(source.url, `omni_test_${randomBytes(6).toString('hex')}`, {
    template: source.template,
    connections: 5,
    workers: source.citusWorkers,
  });
}

/**
 * A database with no migration applied yet, for tests of a migration against the rows an
 * earlier schema stored; closing it drops it (PostgreSQL).
 */
export async function openEmptyDatabase(): Promise<DatabaseHandle> {
  const source = inject('testDatabase');
  if (source.engine === 'pglite') {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await client.waitReady;
    return wrapPglite(client);
  }
  const name = `omni_empty_${randomBytes(6).toString('hex')}`;
  const opened = await openPostgresDatabase(source.url, name, {
    template: undefined,
    connections: 2,
    workers: source.citusWorkers,
  });
  return opened.handle;
}

async function openPostgresDatabase(
  sourceUrl: string,
  name: string,
  options: { template: string | undefined; connections: number; workers?: ClusterNode[] },
): Promise<TestDatabase> {
  const { workers } = options;
  if (workers) {
    await createClusterDatabase(sourceUrl, workers, name, options.template);
  } else {
    const admin = new pg.Client({ connectionString: sourceUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${options.template ?? 'template0'}`);
    await admin.end();
  }
  const url = databaseUrlFor(sourceUrl, name);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.connections,
    options: CONNECTION_OPTIONS,
  });
  // Dropping the database at the end ends connections that pool.end() has not closed yet.
  pool.on('error', () => {});
  const handle = wrapPool(pool, url);
  const close = handle.close.bind(handle);
  handle.close = async () => {
    await close();
    if (workers) return dropClusterDatabase(sourceUrl, workers, name);
    const dropper = new pg.Client({ connectionString: sourceUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  return { handle, url };
}
