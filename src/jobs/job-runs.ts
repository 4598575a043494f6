// Poison jobs: a durable job whose run ends its process (a handler that crashes, runs out of
// memory or is killed by what it reads) would otherwise be started again after every restart and
// end the process again, for ever. Each run of a job is recorded in job_runs with a heartbeat; a
// run found silent (its heartbeat older than its deadline) never finished, so its process ended
// under it. After `crashLimit` such runs the job is given up: marked with the reason and never
// started again by itself. The count lives in the database, so it survives restarts and is the
// same for every instance (docs/reliability.md, "Poison jobs").
import { randomUUID } from 'node:crypto';
import { isDatabaseUnavailable } from '../db/connection/connection-loss.ts';
import type { DatabaseHandle } from '../db/connection/database.ts';

export interface JobRunsOptions {
  /** Runs that may end their process before the job is given up. */
  crashLimit: number;
  /** A run silent this long has ended its process; it is renewed at a third of it. */
  heartbeatSeconds: number;
}

/** A started run: ends its record when the run finishes (success or an ordinary error). */
export interface JobRun {
  /** Earlier runs of this job that ended their process. */
  crashes: number;
  finish(): Promise<void>;
}

export type RunStart =
  | { state: 'started'; run: JobRun }
  /** Given up now or earlier: the reason says why. */
  | { state: 'poisoned'; reason: string; crashes: number }
  /** Another run of the same job is alive (on this or another instance). */
  | { state: 'busy' };

interface RunRow {
  crashes: number;
  run_token: string | null;
  expired: boolean;
  poisoned: boolean;
  reason: string | null;
}

export class JobRuns {
  private readonly db: DatabaseHandle;
  private readonly options: JobRunsOptions;

  constructor(db: DatabaseHandle, options: JobRunsOptions) {
    this.db = db;
    this.options = options;
  }

  /**
   * On the embedded database this process is the only one (the data directory's lock), so every
   * run still recorded as under way belonged to a process that ended under it.
   */
  async countOrphanedRuns(): Promise<void> {
    if (this.db.engine !== 'pglite') return;
    await this.db.query(
      `update job_runs set crashes = crashes + 1, run_token = null, alive_until = null
        where run_token is not null`,
    );
  }

  /** Records the start of a run of the job `key` of `queue`, unless it is given up or running. */
  async begin(queue: string, key: string): Promise<RunStart> {
    const token = randomUUID();
    const { crashLimit, heartbeatSeconds } = this.options;
    const start = await this.db.rawTransaction(async (sql): Promise<RunStart | number> => {
      await sql.query(
        'insert into job_runs (queue, job_key) values ($1, $2) on conflict do nothing',
        [queue, key],
      );
      const [row] = await sql.query<RunRow>(
        `select crashes, run_token, alive_until < now() as expired, poisoned_at is not null as poisoned, reason
           from job_runs where queue = $1 and job_key = $2 for update`,
        [queue, key],
      );
      const { run_token: current, expired, poisoned, reason } = row!;
      if (poisoned) return { state: 'poisoned', reason: reason ?? '', crashes: row!.crashes };
      if (current !== null && !expired) return { state: 'busy' };
      // A run recorded as under way whose heartbeat stopped ended its process.
      const crashes = row!.crashes + (current !== null ? 1 : 0);
      if (crashes >= crashLimit) {
        const given = `The job was given up: its runs ended the server process ${crashes} times (JOB_CRASH_LIMIT ${crashLimit}); it is not started again by itself.`;
        await sql.query(
          `update job_runs set crashes = $3, run_token = null, alive_until = null, poisoned_at = now(), reason = $4
            where queue = $1 and job_key = $2`,
          [queue, key, crashes, given],
        );
        return { state: 'poisoned', reason: given, crashes };
      }
      await sql.query(
        `update job_runs set crashes = $3, run_token = $4, alive_until = now() + make_interval(secs => $5)
          where queue = $1 and job_key = $2`,
        [queue, key, crashes, token, heartbeatSeconds],
      );
      return crashes;
    });
    if (typeof start !== 'number') return start;
    return { state: 'started', run: this.heartbeat(queue, key, token, start) };
  }

  private heartbeat(queue: string, key: string, token: string, crashes: number): JobRun {
    const { heartbeatSeconds } = this.options;
    const renew = async () => {
      try {
        await this.db.query(
          `update job_runs set alive_until = now() + make_interval(secs => $4)
            where queue = $1 and job_key = $2 and run_token = $3`,
          [queue, key, token, heartbeatSeconds],
        );
      } catch {
        // The database is briefly unreachable: the next beat tries again.
      }
    };
    const timer = setInterval(() => void renew(), (heartbeatSeconds * 1000) / 3);
    timer.unref();
    return {
      crashes,
      finish: async () => {
        clearInterval(timer);
        // The run ended without ending its process: the job's crash count starts again. A run
        // that ended because the database went away (a failover) waits for it to come back,
        // within its record's deadline: a record left behind would count as a crash of the
        // process, and its job, sent again meanwhile, would find it busy.
        const deadline = Date.now() + heartbeatSeconds * 1000;
        for (;;) {
          try {
            await this.db.query(
              'delete from job_runs where queue = $1 and job_key = $2 and run_token = $3',
              [queue, key, token],
            );
            return;
          } catch (error) {
            if (!isDatabaseUnavailable(error) || Date.now() >= deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
      },
    };
  }
}
