// DatabaseHandle.asyncCommit: statements whose commit does not wait for the disk, on PostgreSQL
// through connections of their own with synchronous_commit off; their writes are visible to the
// main pool at once. The embedded database runs them as any statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.handle.exec('create table async_probe (id integer primary key)');
});
afterAll(() => database?.handle.close());

describe('asyncCommit', () => {
  it('commits without waiting for the disk on PostgreSQL, and the main pool sees the write at once', async () => {
    const [setting] = await database.handle.asyncCommit.query<{ synchronous_commit: string }>(
      'show synchronous_commit',
    );
    const [main] = await database.handle.query<{ synchronous_commit: string }>(
      'show synchronous_commit',
    );
    if (database.handle.engine === 'postgres') {
      expect(setting!.synchronous_commit).toBe('off');
      expect(main!.synchronous_commit).toBe('on');
    } else expect(database.handle.asyncCommit).toBe(database.handle);
    await database.handle.asyncCommit.prepared(
      'async_probe_insert',
      'insert into async_probe values ($1)',
      [1],
    );
    expect(await database.handle.query('select id from async_probe')).toEqual([{ id: 1 }]);
  });
});
