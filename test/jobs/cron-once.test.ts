// Scheduled jobs run once per occurrence across instances: two job queues (two instances' worth
// of pg-boss) on one PostgreSQL declare the same every-minute queue, as every instance of the
// server declares each module's cron queues; each minute's occurrence runs on one of them only.
// PostgreSQL only: the embedded database has one process by construction.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pino from 'pino';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { wrapPool } from '../../src/db/connection/database.ts';
import pg from 'pg';

const onPostgres = inject('testDatabase').engine === 'postgres';

describe.skipIf(!onPostgres)('a cron queue declared by two instances', () => {
  let database: TestDatabase;
  const instances: { queue: JobQueue; close: () => Promise<void> }[] = [];
  const runs: { instance: number; minute: string }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    for (const instance of [1, 2]) {
      // Each instance has its own pool, as separate processes would.
      const pool = new pg.Pool({ connectionString: database.url, max: 3 });
      const handle = wrapPool(pool, database.url);
      const queue = new JobQueue(handle, {
        pollingIntervalSeconds: 1,
        maintenanceIntervalSeconds: 30,
        crashLimit: 3,
        heartbeatSeconds: 15,
        migrate: true,
      });
      queue.define({
        name: 'test.every-minute',
        cron: '* * * * *',
        retryLimit: 0,
        retryDelaySeconds: 1,
        expireInSeconds: 60,
        concurrency: 1,
        handler: async () => {
          runs.push({ instance, minute: new Date().toISOString().slice(0, 16) });
        },
      });
      await queue.start(pino({ level: 'silent' }));
      instances.push({
        queue,
        close: async () => {
          await queue.stop();
          await handle.close();
        },
      });
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database?.handle.close();
  });

  it('runs each minute once, whichever instance takes it', { timeout: 100_000 }, async () => {
    // The first minute boundary after start: both instances' schedulers see it due.
    const deadline = Date.now() + 80_000;
    while (runs.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Time for a duplicate of the last occurrence to show up, if there were one.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const perMinute = new Map<string, number>();
    for (const run of runs) perMinute.set(run.minute, (perMinute.get(run.minute) ?? 0) + 1);
    expect(perMinute.size).toBeGreaterThanOrEqual(1);
    for (const count of perMinute.values()) expect(count).toBe(1);
  });
});
