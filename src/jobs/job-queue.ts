// The durable job queue (pg-boss) on the server's own database: jobs survive restarts and run
// once across instances. Modules register their queues and handlers before start. Every run is
// recorded (job-runs.ts): a job whose runs end their process JOB_CRASH_LIMIT times is given up.
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, RawSql } from '../db/connection/database.ts';
import { JOB_SCHEMA } from './job-schema.ts';
import { JobRuns, type JobRun, type JobRunsOptions } from './job-runs.ts';
import { bossDb } from './pglite-boss-adapter.ts';
import { keepJobEndingsFromEndingTheProcess } from './worker-job-endings.ts';
import { severalHostsOf } from '../db/failover/primary-hosts.ts';

export interface QueueDefinition<Data extends object> {
  name: string;
  /** Runs one job; throwing makes pg-boss retry it (retryLimit, with backoff). */
  handler: (
    data: Data,
    job: { id: string; retryCount: number; retryLimit: number },
  ) => Promise<void>;
  retryLimit: number;
  retryDelaySeconds: number;
  expireInSeconds: number;
  /** Jobs of this queue one instance runs at the same time (one worker each). */
  concurrency: number;
  /**
   * A cron expression (UTC) to run the job on a schedule, once per occurrence across all
   * instances (pg-boss's scheduler); its data is `{}`.
   */
  cron?: string;
  /**
   * What one job is across the pg-boss jobs sent for it (a module that sends a job again to
   * resume its work names the work here); its runs' crashes are counted per key. Default: the
   * pg-boss job's id.
   */
  runKey?: (data: Data) => string;
  /** Marks the module's own record of the job failed, with the reason, when the job is given up. */
  poisoned?: (data: Data, reason: string) => Promise<void>;
}

export interface JobQueueOptions extends JobRunsOptions {
  /**
   * Whether start() brings pg-boss's tables to its version itself (a start that migrates); else
   * install() did, in `omni migrate`, and start() refuses tables of another version.
   */
  migrate: boolean;
  /** How often an idle worker looks for jobs, and how often expired jobs are detected. */
  pollingIntervalSeconds: number;
  maintenanceIntervalSeconds: number;
}

/** A job that was not run: given up (poisoned), or another run of it is alive (tried again). */
export class JobNotRunError extends Error {}

export class JobQueue {
  private readonly database: DatabaseHandle;
  private readonly options: JobQueueOptions;
  private readonly queues: QueueDefinition<object>[] = [];
  private readonly runs: JobRuns;
  /** Runs under way in this process: a graceful stop ends their records (no crash counted). */
  private readonly active = new Set<JobRun>();
  private boss: PgBoss | undefined;
  private log: FastifyBaseLogger | undefined;

  constructor(database: DatabaseHandle, options: JobQueueOptions) {
    this.database = database;
    this.options = options;
    this.runs = new JobRuns(database, options);
  }

  define<Data extends object>(queue: QueueDefinition<Data>): void {
    if (this.boss) throw new Error(`Queue ${queue.name} is defined after the job queue started`);
    this.queues.push(queue as unknown as QueueDefinition<object>);
  }

  async start(log: FastifyBaseLogger): Promise<void> {
    this.log = log;
    keepJobEndingsFromEndingTheProcess((ending, error) =>
      log.warn(
        { err: error, ending },
        'a job ended while the database was unreachable; it stays active and runs again after it expires',
      ),
    );
    const boss = this.newBoss({
      migrate: this.options.migrate,
      schedule: this.queues.some((q) => q.cron !== undefined),
      supervise: true,
    });
    boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
    await boss.start();
    await this.createQueues(boss);
    await this.runs.countOrphanedRuns();
    for (const queue of this.queues) {
      if (queue.cron) await boss.schedule(queue.name, queue.cron, {}, { tz: 'UTC' });
    }
    for (const queue of this.queues) {
      for (let worker = 0; worker < queue.concurrency; worker++) await this.work(boss, queue);
    }
    this.boss = boss;
  }

  /**
   * The release step's part (`omni migrate`): pg-boss's tables brought to its version and every
   * queue's table made, so that a start that does not migrate finds them and changes no schema.
   */
  async install(): Promise<void> {
    // With its scheduler, as start() runs it: pg-boss makes the scheduler's own queue then.
    const boss = this.newBoss({
      migrate: true,
      schedule: this.queues.some((q) => q.cron !== undefined),
      supervise: false,
    });
    await boss.start();
    try {
      await this.createQueues(boss);
    } finally {
      await boss.stop({ graceful: false, wait: true, close: true });
    }
  }

  private newBoss(options: { migrate: boolean; schedule: boolean; supervise: boolean }): PgBoss {
    const common = {
      ...options,
      schema: JOB_SCHEMA,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds,
    };
    // pg-boss opens its own pool from one host's URL; with several hosts (a failover pair) it
    // goes through the server's pool instead, which follows the primary.
    const ownPool = this.database.engine === 'postgres' && !severalHostsOf(this.database.url ?? '');
    return ownPool
      ? new PgBoss({
          ...common,
          connectionString: this.database.url,
          max: 4,
          application_name: 'omni-jobs',
        })
      : new PgBoss({ ...common, db: bossDb(this.database) });
  }

  private async work(boss: PgBoss, queue: QueueDefinition<object>): Promise<void> {
    await boss.work<object>(
      queue.name,
      {
        pollingIntervalSeconds: this.options.pollingIntervalSeconds,
        includeMetadata: true,
        batchSize: 1,
      },
      async (jobs) => {
        for (const job of jobs) {
          const meta = job as unknown as { retryCount: number; retryLimit: number };
          await this.run(queue, job.data, {
            id: job.id,
            retryCount: meta.retryCount,
            retryLimit: meta.retryLimit,
          });
        }
      },
    );
  }

  /** Runs one job under its run record; a given-up job fails for good without running. */
  private async run(
    queue: QueueDefinition<object>,
    data: object,
    job: { id: string; retryCount: number; retryLimit: number },
  ): Promise<void> {
    const key = queue.runKey?.(data) ?? job.id;
    const start = await this.runs.begin(queue.name, key);
    if (start.state === 'busy') {
      // pg-boss tries it again after its retry delay, when the live run may have ended.
      throw new JobNotRunError(`Another run of ${queue.name} ${key} is under way.`);
    }
    if (start.state === 'poisoned') {
      this.log?.error(
        { queue: queue.name, job: job.id, key, crashes: start.crashes },
        start.reason,
      );
      await queue.poisoned?.(data, start.reason);
      // Failed with the reason, with no retry left.
      await this.database.query(
        `update ${JOB_SCHEMA}.job set retry_limit = retry_count where name = $1 and id = $2`,
        [queue.name, job.id],
      );
      throw new JobNotRunError(start.reason);
    }
    if (start.run.crashes > 0)
      this.log?.warn(
        { queue: queue.name, job: job.id, key, crashes: start.run.crashes },
        'job runs again after runs that ended their process',
      );
    this.active.add(start.run);
    try {
      await queue.handler(data, job);
    } finally {
      this.active.delete(start.run);
      await start.run
        .finish()
        .catch((error: unknown) =>
          this.log?.warn({ err: error, queue: queue.name, key }, 'could not end the run record'),
        );
    }
  }

  /**
   * Creates the queues that do not exist yet. Servers starting together on one PostgreSQL take
   * turns: pg-boss's create_queue deadlocks when two sessions create the same queue at once, and
   * the loser of the deadlock would fail its start.
   */
  private async createQueues(boss: PgBoss): Promise<void> {
    const create = async () => {
      for (const queue of this.queues) {
        await boss.createQueue(queue.name, {
          name: queue.name,
          retryLimit: queue.retryLimit,
          retryDelay: queue.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: queue.expireInSeconds,
        });
      }
    };
    // The embedded database has one process and one connection (a transaction would block pg-boss).
    if (this.database.engine !== 'postgres') return create();
    // On Citus the queue's DDL also runs on the workers, where two starts have still met in a
    // deadlock (seen once in CI); creating a queue that exists is a no-op, so the loser tries again.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.database.rawTransaction(async (sql) => {
          await sql.query("select pg_advisory_xact_lock(hashtext('omni.jobs.create-queues'))");
          await create();
        });
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== '40P01' || attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  /** Enqueues a job; with `sql`, inside the caller's transaction (it exists only if that commits). */
  async send(
    name: string,
    data: object,
    options: PgBoss.SendOptions = {},
    sql?: RawSql,
  ): Promise<string | null> {
    const boss = this.requireStarted();
    return boss.send(name, data, sql ? { ...options, db: bossDb(sql) } : options);
  }

  async cancel(name: string, id: string): Promise<void> {
    await this.requireStarted()
      .cancel(name, id)
      .catch((error: unknown) => this.log?.warn({ err: error, job: id }, 'could not cancel job'));
  }

  async stop(): Promise<void> {
    // Jobs in flight are failed back to the queue and retried by whichever instance runs next.
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: true });
    this.boss = undefined;
    // Runs still under way are cut short by the stop, not by a crash: their jobs are not counted
    // as having ended their process (a deploy during a long export is no poison).
    await Promise.allSettled([...this.active].map((run) => run.finish()));
    this.active.clear();
  }

  private requireStarted(): PgBoss {
    if (!this.boss) throw new Error('The job queue is not started');
    return this.boss;
  }
}
