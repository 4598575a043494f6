// The lease a running import or export job holds on its row (lease_token, lease_until): taken
// only when free or expired, renewed while the job runs, and checked by every commit of the job
// (docs/api.md, "Catalog import and export"). A lease that could not be renewed (the job was
// cancelled, or another instance took it over after this one stalled) stops the job.
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../../db/connection/database.ts';

export class JobLease {
  readonly token = randomUUID();
  /** Set when a renewal found the job no longer ours or no longer running. */
  lost = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly db: DatabaseHandle;
  private readonly table: string;
  private readonly tenantId: number;
  private readonly id: number;
  readonly seconds: number;

  constructor(db: DatabaseHandle, table: string, tenantId: number, id: number, seconds: number) {
    this.db = db;
    this.table = table;
    this.tenantId = tenantId;
    this.id = id;
    this.seconds = seconds;
  }

  /** Takes the lease of a Queued or Running job when free or expired; answers the row or undefined. */
  async acquire<Row>(): Promise<Row | undefined> {
    // started_at from the time read first (Citus runs no function but immutable ones inside a
    // coalesce of a distributed table's update); now() is the transaction's time, the same in both.
    const row = await this.db.rawTransaction(async (sql) => {
      const [clock] = await sql.query<{ now: string }>('select now()::text as now');
      const [taken] = await sql.query<Row>(
        `update ${this.table} set lease_token = $3, lease_until = now() + make_interval(secs => $4),
                state = 'Running', started_at = coalesce(started_at, $5::timestamptz)
          where tenant_id = $1 and id = $2 and state in ('Queued', 'Running')
            and (lease_until is null or lease_until < now())
          returning *`,
        [this.tenantId, this.id, this.token, this.seconds, clock!.now],
      );
      return taken;
    });
    if (!row) return undefined;
    this.timer = setInterval(() => void this.renew(), (this.seconds * 1000) / 3);
    this.timer.unref();
    return row;
  }

  private async renew(): Promise<void> {
    try {
      const rows = await this.db.query(
        `update ${this.table} set lease_until = now() + make_interval(secs => $4)
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running' returning 1`,
        [this.tenantId, this.id, this.token, this.seconds],
      );
      if (rows.length === 0) this.lost = true;
    } catch {
      // The database is briefly unreachable: the next renewal (or the next commit) tells.
    }
  }

  /** Ends the job: state and error set only while the lease is still this job's. */
  async finish(state: string, error: string | null = null): Promise<boolean> {
    this.stop();
    const rows = await this.db.query(
      `update ${this.table} set state = $4, error = $5, finished_at = now(), lease_token = null, lease_until = null
        where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running' returning 1`,
      [this.tenantId, this.id, this.token, state, error],
    );
    return rows.length > 0;
  }

  /** Gives the job back (this server is stopping): another instance may take it over at once. */
  async release(): Promise<void> {
    this.stop();
    await this.db.query(
      `update ${this.table} set lease_until = now() - interval '1 second'
        where tenant_id = $1 and id = $2 and lease_token = $3`,
      [this.tenantId, this.id, this.token],
    );
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The unfinished jobs of a table whose lease expired (or that were never started) long enough ago. */
export async function orphanedJobs(
  db: DatabaseHandle,
  table: string,
  leaseSeconds: number,
): Promise<{ tenantId: number; id: number }[]> {
  return db.query<{ tenantId: number; id: number }>(
    `select tenant_id as "tenantId", id from ${table}
      where state in ('Queued', 'Running')
        and coalesce(lease_until, created_at + make_interval(secs => $1)) < now()
      order by created_at limit 100`,
    [leaseSeconds],
  );
}

/** Fails an unfinished job for good (its runs kept ending their process), whoever holds it. */
export async function giveUpJob(
  db: DatabaseHandle,
  table: string,
  tenantId: number,
  id: number,
  reason: string,
): Promise<void> {
  await db.query(
    `update ${table} set state = 'Failed', error = $3, finished_at = now(), lease_token = null, lease_until = null
      where tenant_id = $1 and id = $2 and state in ('Queued', 'Running')`,
    [tenantId, id, reason],
  );
}
