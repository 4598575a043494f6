// A fresh, migrated database for one test file, from the run's snapshot (see global-setup).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { wrapPool, type DatabaseHandle } from '../../src/db/database.ts';
import { PGLITE_EXTENSIONS, wrapPglite } from '../../src/db/embedded-database.ts';
import { databaseUrlFor } from './global-setup.ts';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** For tests that start a server process on the same database (PostgreSQL only). */
  url: string | undefined;
}

export async function openTestDatabase(): Promise<TestDatabase> {
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
    template: 'template0',
    connections: 2,
  });
  return opened.handle;
}

async function openPostgresDatabase(
  sourceUrl: string,
  name: string,
  options: { template: string; connections: number },
): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: sourceUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${options.template}`);
  await admin.end();
  const url = databaseUrlFor(sourceUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: options.connections });
  // Dropping the database at the end ends connections that pool.end() has not closed yet.
  pool.on('error', () => {});
  const handle = wrapPool(pool, url);
  const close = handle.close.bind(handle);
  handle.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: sourceUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  return { handle, url };
}
