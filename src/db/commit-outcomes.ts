// A COMMIT whose answer is lost with the primary leaves its outcome unknown: the node may have died
// after its synchronous standby had the commit and before it told the server, and the standby
// promoted since holds it. Answered as a failure, the client's retry with its Idempotency-Key
// would run the write a second time (the key's claim and the work are separate transactions).
// On a failover pair (DATABASE_URL with several hosts) a transaction that wrote reads its id
// before committing; when the commit fails as unavailable, the server asks the new primary, once
// one answers, whether that transaction committed (pg_xact_status: the promoted standby has the
// same transaction history), and carries on as committed when it did. It waits at most
// DATABASE_COMMIT_OUTCOME_WAIT_SECONDS; past that the write is answered 503 as before
// (docs/operations.md, "A failover pair").
import type pg from 'pg';
import { isDatabaseUnavailable } from './connection-loss.ts';

/** What became of a commit whose answer was lost; `unknown`: no primary answered in time. */
export interface CommitOutcome {
  xid: string;
  status: 'committed' | 'not committed' | 'unknown';
  waitedMs: number;
}

/** Pause between two questions while no primary answers. */
const ASK_AGAIN_MS = 250;

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

  /** The id of the connection's transaction when it has written (has one), else undefined. */
  async transactionId(client: pg.PoolClient): Promise<string | undefined> {
    const { rows } = await client.query<{ xid: string | null }>(
      'select pg_current_xact_id_if_assigned()::text as xid',
    );
    return rows[0]?.xid ?? undefined;
  }

  /**
   * Whether the transaction `xid` committed, asked of the primary once one answers. False when
   * the primary says it did not (aborted, or an id it never saw: "in the future"), or when no
   * primary answered within the wait.
   */
  async committed(xid: string): Promise<boolean> {
    const startedAt = Date.now();
    const status = await this.statusOf(xid, startedAt + this.waitMs);
    this.onSettled({ xid, status, waitedMs: Date.now() - startedAt });
    return status === 'committed';
  }

  private async statusOf(xid: string, deadline: number): Promise<CommitOutcome['status']> {
    for (;;) {
      try {
        const { rows } = await this.pool.query<{ status: string | null }>(
          'select pg_xact_status($1::xid8) as status',
          [xid],
        );
        return rows[0]?.status === 'committed' ? 'committed' : 'not committed';
      } catch (error) {
        // An id the primary never saw ("in the future") did not commit there.
        if (!isDatabaseUnavailable(error)) return 'not committed';
        if (Date.now() >= deadline) return 'unknown';
        await new Promise((resolve) => setTimeout(resolve, ASK_AGAIN_MS));
      }
    }
  }
}
