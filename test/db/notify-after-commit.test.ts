// notify_after_commit (src/db/sql/015-notify-after-commit.sql) through a node-postgres pool: the
// NOTIFY is sent once the asking transaction or statement commits, never for one rolled back,
// also on a connection the pool made before it was wrapped (commit-notifier.ts).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECTION_OPTIONS,
  wrapPool,
  type DatabaseHandle,
} from '../../src/db/connection/database.ts';
import type { Unlisten } from '../../src/db/connection/notification-listener.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const CHANNEL = 'notify_after_commit_test';
let database: TestDatabase;
let handle: DatabaseHandle;
let unlisten: Unlisten;
let heard = 0;

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function heardOne(): Promise<void> {
  const before = heard;
  const deadline = Date.now() + 5_000;
  while (heard === before && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(heard).toBe(before + 1);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('notify_after_commit on PostgreSQL', () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    // One connection, made and used before the pool is wrapped: the pool hands out that one.
    const pool = new pg.Pool({
      connectionString: database.url,
      max: 1,
      options: CONNECTION_OPTIONS,
    });
    await pool.query('select 1');
    handle = wrapPool(pool, database.url);
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    unlisten = await handle.listen!(CHANNEL, { notified: () => heard++, listening });
    await ready;
  });
  afterAll(async () => {
    await unlisten?.();
    await handle?.close();
    await database?.handle.close();
  });

  it('notifies once a transaction that asked commits', async () => {
    await handle.rawTransaction(async (sql) => {
      await sql.query('select notify_after_commit($1)', [CHANNEL]);
      await sql.query('select notify_after_commit($1)', [CHANNEL]);
      await settle();
      expect(heard).toBe(0);
    });
    await heardOne();
  });

  it('notifies after a statement that asked, outside a transaction', async () => {
    await handle.query('select notify_after_commit($1)', [CHANNEL]);
    await heardOne();
  });

  it('sends nothing for a transaction rolled back', async () => {
    const before = heard;
    await expect(
      handle.rawTransaction(async (sql) => {
        await sql.query('select notify_after_commit($1)', [CHANNEL]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await settle();
    expect(heard).toBe(before);
    // The connection goes on announcing its later commits.
    await handle.query('select notify_after_commit($1)', [CHANNEL]);
    await heardOne();
  });
});
