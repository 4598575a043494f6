// A COMMIT whose answer is lost with the primary leaves its outcome unknown: the node may have died
// after its synchronous standby had the commit and before it told the server, and the standby
// promoted since holds it. Answered as a failure, the client's retry with its Idempotency-Key
// would run the write a second time (the key's claim and the work are separate transactions).
// On a failover pair (DATABASE_URL with several hosts) a transaction that wrote inserts a marker
// (a random token) just before committing; when the commit fails as unavailable, the server asks
// the node that takes writes, once one answers, by inserting the same marker there: a conflict
// means committed, and the insert waits for a transaction still completing its commit. The
// marker, not the transaction id: a promoted standby hands out again the ids of the
// transactions it never received, so pg_xact_status there may answer for another
// transaction, and a write that was lost would be answered as done. It waits at most
// DATABASE_COMMIT_OUTCOME_WAIT_SECONDS; past that the write is answered 503 as before
// (docs/operations.md, "A failover pair"). Markers are deleted once old, by a scheduled job
// (commit-marker-pruning.ts; migration 0293).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../connection/connection-loss.ts';

/** What became of a commit whose answer was lost; `unknown`: no primary answered in time. */
export interface CommitOutcome {
  /** The transaction's marker. */
  marker: string;
  status: 'committed' | 'not committed' | 'unknown';
  waitedMs: number;
}

/** Pause between two questions while no primary answers. */
const ASK_AGAIN_MS = 250;
/** How long a marker is kept: far longer than any wait for its question. */
const MARKER_RETENTION = '10 minutes';

/**
 * The marker's insert runs only when the transaction has written (has an id): a read-only
 * transaction needs no settling and writes nothing for it.
 */
const MARK = `insert into commit_markers (token)
  select $1::uuid where pg_current_xact_id_if_assigned() is not null`;

export class CommitOutcomes {
  private readonly pool: pg.Pool;
  private readonly waitMs: number;
  private readonly onSettled: (outcome: CommitOutcome) => void;

  /** `onSettled` hears each lost answer's outcome (the server logs it). */
  constructor(pool: pg.Pool, waitMs: number, onSettled: (outcome: CommitOutcome) => void) {
    this.pool = pool;
    this.waitMs = waitMs;
    this.onSettled = onSettled;
  }

  /**
   * Marks the connection's transaction, just before its COMMIT, when it has written: the marker,
   * else undefined.
   */
  async mark(client: pg.PoolClient): Promise<string | undefined> {
    const token = randomUUID();
    const { rowCount } = await client.query(MARK, [token]);
    return rowCount ? token : undefined;
  }

  /**
   * Whether the transaction that left `marker` committed, asked of the node that takes writes
   * once one answers. False when that node has no such marker, when none answered within the
   * wait, or when the question failed otherwise (unknown: the write is answered 503).
   */
  async committed(marker: string): Promise<boolean> {
    const startedAt = Date.now();
    const status = await this.statusOf(marker, startedAt + this.waitMs);
    this.onSettled({ marker, status, waitedMs: Date.now() - startedAt });
    return status === 'committed';
  }

  /** Deletes the markers past their retention; answers how many went. */
  async prune(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `delete from commit_markers where marked_at < now() - interval '${MARKER_RETENTION}'`,
    );
    return rowCount ?? 0;
  }

  /**
   * Settles by inserting the marker itself: a conflict means the transaction committed. A
   * transaction still completing its commit (waiting for its synchronous standby after a
   * connection blip) holds its marker's row, so the insert waits for it to end instead of reading
   * "not there yet"; when it rolls back, the insert goes through and the marker, now ours, keeps a
   * late commit of it impossible. Any error other than unavailability answers unknown, never "not
   * committed".
   */
  private async statusOf(marker: string, deadline: number): Promise<CommitOutcome['status']> {
    for (;;) {
      try {
        const { rowCount } = await this.pool.query(
          'insert into commit_markers (token) values ($1::uuid) on conflict (token) do nothing',
          [marker],
        );
        return rowCount === 0 ? 'committed' : 'not committed';
      } catch (error) {
        if (!isDatabaseUnavailable(error)) return 'unknown';
        if (Date.now() >= deadline) return 'unknown';
        await new Promise((resolve) => setTimeout(resolve, ASK_AGAIN_MS));
      }
    }
  }
}
