// A process for the poison-job test: one job queue on DATABASE_URL (PostgreSQL) or DATA_DIR (the
// embedded database), whose handler ends its own process (SIGKILL, as an out-of-memory kill or a
// crash would). With SEND=1 it first sends one job. It prints what happens as lines (RUN when the
// handler starts, POISONED when the job is given up) and, once the job has ended in pg-boss,
// DONE with its state and output, then exits.
import pino from 'pino';
import { openDatabase } from '../../../src/db/database.ts';
import { JobQueue } from '../../../src/jobs/job-queue.ts';
import { JOB_SCHEMA } from '../../../src/jobs/job-schema.ts';

const QUEUE = 'test.crashing';
const say = (line: string) => process.stdout.write(`${line}\n`);

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? './data',
});
const jobs = new JobQueue(database, {
  pollingIntervalSeconds: 1,
  maintenanceIntervalSeconds: 1,
  crashLimit: Number(process.env.JOB_CRASH_LIMIT ?? 3),
  heartbeatSeconds: 1,
});
jobs.define<{ name: string }>({
  name: QUEUE,
  handler: async (data, job) => {
    say(`RUN ${data.name} ${job.retryCount}`);
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => {});
  },
  poisoned: async (data, reason) => {
    say(`POISONED ${data.name} ${reason}`);
  },
  retryLimit: 20,
  retryDelaySeconds: 1,
  expireInSeconds: 1,
  concurrency: 1,
});
await jobs.start(pino({ level: 'silent' }));
if (process.env.SEND === '1') await jobs.send(QUEUE, { name: 'poison' });

const deadline = Date.now() + 60_000;
for (;;) {
  const [job] = await database.query<{ state: string; output: unknown }>(
    `select state, output from ${JOB_SCHEMA}.job where name = $1`,
    [QUEUE],
  );
  if (job && (job.state === 'failed' || job.state === 'completed')) {
    say(`DONE ${job.state} ${JSON.stringify(job.output)}`);
    break;
  }
  if (Date.now() > deadline) {
    say(`TIMEOUT ${job?.state}`);
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await jobs.stop();
await database.close();
