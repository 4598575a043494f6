// A job that ends while the database cannot be reached (an outage, a failover): pg-boss 10 ends
// it with a complete() it does not await, which used to end the whole server on the unhandled
// rejection. The server lives on, logs it, and its queue goes on working once the database is
// back (src/jobs/worker-job-endings.ts). The database's loss is played by a handle that answers
// ECONNREFUSED while switched off; on the embedded database pg-boss goes through that handle (on
// PostgreSQL of one host it opens its own pool, which the failover test covers with a real
// failover: test/reliability/failover.test.ts).
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import { JOB_SCHEMA } from '../../src/jobs/job-schema.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const onPglite = inject('testDatabase').engine === 'pglite';

/** The handle, with its queries refused as a lost connection while `reachable` is false. */
function switchable(handle: DatabaseHandle): { handle: DatabaseHandle; reachable: boolean } {
  const state = { reachable: true, handle };
  const refuse = () => {
    if (!state.reachable)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      });
  };
  state.handle = new Proxy(handle, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !['query', 'execRows'].includes(String(property)))
        return value;
      return async (...args: unknown[]) => {
        refuse();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return state;
}

describe.skipIf(!onPglite)('a job that ends while the database is unreachable', () => {
  let database: TestDatabase;
  let queue: JobQueue;
  let db: ReturnType<typeof switchable>;
  const logged: { msg: string; ending?: string }[] = [];
  const ran: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    database = await openTestDatabase();
    db = switchable(database.handle);
    queue = new JobQueue(db.handle, {
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 60,
      crashLimit: 3,
      heartbeatSeconds: 2,
      migrate: true,
    });
    queue.define<{ name: string }>({
      name: 'test.endings',
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      concurrency: 1,
      handler: async ({ name }) => {
        ran.push(name);
        // The database goes away as the job ends, before its run record and pg-boss record its
        // end (the run record waits heartbeatSeconds for it, then pg-boss fails the job).
        if (name === 'first') db.reachable = false;
      },
    });
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(JSON.parse(chunk.toString()) as { msg: string; ending?: string });
        done();
      },
    });
    await queue.start(pino({ level: 'warn' }, log));
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    db.reachable = true;
    await queue?.stop();
    await database?.handle.close();
  });

  it('keeps the process, says so, and runs the next job once the database is back', async () => {
    await queue.send('test.endings', { name: 'first' });
    await expect
      .poll(() => logged.find((line) => line.ending), { timeout: 30_000 })
      .toMatchObject({
        msg: 'a job ended while the database was unreachable; it stays active and runs again after it expires',
      });
    expect(unhandled).toEqual([]);

    db.reachable = true;
    // Still active: its end was never recorded, so pg-boss's expiry will run it again.
    const [first] = await database.handle.query<{ state: string }>(
      `select state from ${JOB_SCHEMA}.job where name = 'test.endings' and data->>'name' = 'first'`,
    );
    expect(first?.state).toBe('active');

    await queue.send('test.endings', { name: 'second' });
    await expect.poll(() => ran).toEqual(['first', 'second']);
    await expect
      .poll(
        async () =>
          (
            await database.handle.query<{ state: string }>(
              `select state from ${JOB_SCHEMA}.job where name = 'test.endings' and data->>'name' = 'second'`,
            )
          )[0]?.state,
      )
      .toBe('completed');
    expect(unhandled).toEqual([]);
  });
});
