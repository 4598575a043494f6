// Poison jobs: a durable job whose run ends its process is started again after the restart (by
// pg-boss's retry once its run expired, or by a module resending it), and would end the process
// again for ever. Its runs are counted in the database: after JOB_CRASH_LIMIT (3) runs that ended
// their process, the job is given up — failed with the reason, the module told, never started
// again by itself. Each run here is a new process (the count survives restarts); on PostgreSQL
// any instance would read the same count. Both engines.
import { spawn } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import { PROJECT_ROOT, childEnv, migratedDataDir, removeTempDirs } from '../support/processes.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const WORKER = path.join(PROJECT_ROOT, 'test/jobs/fixtures/crashing-job-worker.ts');
const onPostgres = inject('testDatabase').engine === 'postgres';

interface Run {
  lines: string[];
  signal: NodeJS.Signals | null;
  code: number | null;
}

function runWorker(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER], { cwd: PROJECT_ROOT, env: childEnv(env) });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const lines = out.split('\n').filter(Boolean);
      if (code !== null && code !== 0) reject(new Error(`worker exited ${code}:\n${out}\n${err}`));
      else resolve({ lines, signal, code });
    });
  });
}

describe('a job whose runs end their process', () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (onPostgres) {
      database = await openTestDatabase();
      env = { DATABASE_URL: database.url! };
    } else {
      env = { DATA_DIR: await migratedDataDir() };
    }
  });
  afterAll(async () => {
    await database?.handle.close();
    await removeTempDirs();
  });

  it(
    'is given up after 3 such runs, with the reason, and never started again',
    { timeout: 240_000 },
    async () => {
      const runs: Run[] = [];
      runs.push(await runWorker({ ...env, SEND: '1' }));
      while (runs.length < 6 && !runs.at(-1)!.lines.some((l) => l.startsWith('DONE')))
        runs.push(await runWorker(env));

      // Three runs, each ended by its handler (SIGKILL), each a retry of the one before.
      expect(runs.slice(0, 3).map((r) => r.signal)).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL']);
      expect(runs.slice(0, 3).map((r) => r.lines.filter((l) => l.startsWith('RUN')))).toEqual([
        ['RUN poison 0'],
        ['RUN poison 1'],
        ['RUN poison 2'],
      ]);
      // The fourth process gives the job up without running it: the module is told, pg-boss
      // marks it failed with the reason and no retry left.
      expect(runs).toHaveLength(4);
      const fourth = runs[3]!;
      expect(fourth.code).toBe(0);
      expect(fourth.lines.some((l) => l.startsWith('RUN'))).toBe(false);
      const reason =
        'The job was given up: its runs ended the server process 3 times (JOB_CRASH_LIMIT 3); it is not started again by itself.';
      expect(fourth.lines).toContain(`POISONED poison ${reason}`);
      const done = fourth.lines.find((l) => l.startsWith('DONE '))!;
      expect(done.startsWith('DONE failed ')).toBe(true);
      expect(done).toContain('given up');

      // Another start later: nothing runs.
      const later = await runWorker(env);
      expect(later.code).toBe(0);
      expect(later.lines.filter((l) => l.startsWith('RUN') || l.startsWith('POISONED'))).toEqual(
        [],
      );
      expect(later.lines.at(-1)!.startsWith('DONE failed ')).toBe(true);
    },
  );
});

describe('a run cut short by a graceful stop', () => {
  it('is not counted as a run that ended its process', { timeout: 60_000 }, async () => {
    const database = await openTestDatabase();
    const queue = new JobQueue(database.handle, {
      pollingIntervalSeconds: 1,
      maintenanceIntervalSeconds: 30,
      crashLimit: 3,
      heartbeatSeconds: 60,
      migrate: true,
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    queue.define({
      name: 'test.long',
      handler: async () => {
        started();
        // Outlives the stop's 10 s wait, as a long export would.
        await held;
      },
      retryLimit: 3,
      retryDelaySeconds: 1,
      expireInSeconds: 3600,
      concurrency: 1,
    });
    try {
      await queue.start(pino({ level: 'silent' }));
      await queue.send('test.long', {});
      await running;
      const during = await database.handle.query(
        "select 1 from job_runs where queue = 'test.long' and run_token is not null",
      );
      expect(during).toHaveLength(1);
      await queue.stop();
      expect(
        await database.handle.query("select crashes from job_runs where queue = 'test.long'"),
      ).toEqual([]);
    } finally {
      release();
      // The handler's end still writes (its run record, pg-boss's completion, which pg-boss does
      // not wait for): the database closes after them.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await database.handle.close();
    }
  });
});
