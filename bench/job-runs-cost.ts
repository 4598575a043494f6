// What the poison-job ledger (src/jobs/job-runs.ts) adds to every job run: one transaction to
// record the start (insert, select for update, update) and one delete at the end. Run as
// `node bench/job-runs-cost.ts` (embedded database in a temporary folder) or with
// BENCH_DATABASE_URL=postgres://… ; JOB_RUNS_BENCH_COUNT runs (2,000 by default), one at a time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/connection/database.ts';
import { JobRuns } from '../src/jobs/job-runs.ts';
import { migrateDatabase } from '../src/migrate-database.ts';

const COUNT = Number(process.env.JOB_RUNS_BENCH_COUNT ?? 2000);
const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-job-runs-'));
const database = await openDatabase({
  databaseUrl: process.env.BENCH_DATABASE_URL,
  dataDir,
});
try {
  await migrateDatabase(database);
  const runs = new JobRuns(database, { crashLimit: 3, heartbeatSeconds: 15 });
  const queue = `bench.job-runs.${process.pid}`;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) {
    const start = await runs.begin(queue, String(i));
    if (start.state !== 'started') throw new Error(`run ${i}: ${start.state}`);
    await start.run.finish();
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(
    `${database.engine}: ${COUNT} runs recorded and ended, ${(ms / COUNT).toFixed(2)} ms each ` +
      `(${((used.user + used.system) / 1000 / COUNT).toFixed(3)} ms of this process's CPU)`,
  );
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
