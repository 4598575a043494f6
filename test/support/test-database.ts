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
  const name = `omni_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: source.url });
  await admin.connect();
  await admin.query(`create database ${name} template ${source.template}`);
  await admin.end();
  const url = databaseUrlFor(source.url, name);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // Dropping the database at the end ends connections that pool.end() has not closed yet.
  pool.on('error', () => {});
  const handle = wrapPool(pool, url);
  const close = handle.close.bind(handle);
  handle.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: source.url });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  return { handle, url };
}
