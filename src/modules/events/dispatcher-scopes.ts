// Which tenants a webhook dispatcher round reads at a time (docs/operations.md, "Fault
// isolation"). A round's searches (events to place, subscriptions behind, deliveries due) read
// every tenant in one statement each; on Citus such a statement reads every shard, and fails as
// a whole when one worker cannot be reached. Then the round reads the tenants of each worker on
// their own (`tenant_id = any(…)`, which Citus prunes to that worker's shards): the tenants of
// the workers that answer keep their webhooks, those of the one that does not wait for it. Rounds
// go on that way for a while, then try all tenants at once again.
import type { FastifyBaseLogger } from 'fastify';
import { valuesByNode } from '../../db/citus/citus-nodes.ts';
import { isDatabaseUnavailable } from '../../db/connection/connection-loss.ts';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { hasCitus } from '../../db/citus/distribution.ts';

/** The tenants a search reads: every tenant (undefined), or these. */
export type Scope = readonly number[] | undefined;

/** How long rounds read worker by worker after one could not be reached, before trying all. */
const NODE_BY_NODE_MS = 30_000;
/** How long the tenants' placement is kept while rounds read worker by worker. */
const PLACEMENT_TTL_MS = 10_000;

export interface ScopedResults<T> {
  results: T[];
  /** The workers whose tenants could not be read (0 when all tenants were read at once). */
  unreachable: number;
}

export class ScanScopes {
  private readonly db: DatabaseHandle;
  private readonly log: () => FastifyBaseLogger | undefined;
  private citus: boolean | undefined;
  private nodeByNodeUntil = 0;
  private placement: { at: number; tenants: number[][] } | undefined;

  constructor(db: DatabaseHandle, log: () => FastifyBaseLogger | undefined) {
    this.db = db;
    this.log = log;
  }

  /**
   * Runs `search` for every tenant: once for all of them, or, while a Citus worker cannot be
   * reached, once for each worker's tenants, leaving out those whose worker does not answer.
   * Any other failure is thrown.
   */
  async run<T>(search: (scope: Scope) => Promise<T>): Promise<ScopedResults<T>> {
    const now = performance.now();
    if (now >= this.nodeByNodeUntil) {
      try {
        return { results: [await search(undefined)], unreachable: 0 };
      } catch (error) {
        if (!isDatabaseUnavailable(error) || !(await this.isCitus())) throw error;
        if (this.nodeByNodeUntil === 0)
          this.log()?.warn(
            { err: error },
            "webhook dispatcher: a database node cannot be reached; reading each Citus worker's tenants on their own",
          );
        this.nodeByNodeUntil = now + NODE_BY_NODE_MS;
      }
    }
    const results: T[] = [];
    let unreachable = 0;
    for (const tenants of await this.tenantsByNode(now)) {
      try {
        results.push(await search(tenants));
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        unreachable++;
      }
    }
    if (unreachable === 0) {
      this.log()?.info('webhook dispatcher: every Citus worker answers again');
      this.nodeByNodeUntil = 0;
      this.placement = undefined;
    }
    return { results, unreachable };
  }

  private async isCitus(): Promise<boolean> {
    if (this.db.engine !== 'postgres') return false;
    this.citus ??= await hasCitus(this.db);
    return this.citus;
  }

  /** Every tenant, grouped by the worker that holds its events (kept a few seconds). */
  private async tenantsByNode(now: number): Promise<number[][]> {
    if (this.placement && now - this.placement.at < PLACEMENT_TTL_MS) return this.placement.tenants;
    // tenants is a reference table: the coordinator reads its own copy.
    const ids = await this.db.query<{ id: number }>('select id from tenants order by id');
    const tenants = await valuesByNode(
      this.db,
      'events',
      ids.map((row) => Number(row.id)),
    );
    this.placement = { at: now, tenants };
    return tenants;
  }
}
