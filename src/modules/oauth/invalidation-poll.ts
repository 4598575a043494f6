// Applies on this instance what other instances invalidated (auth_invalidations, polled every
// two seconds), and reloads the signing keys now and then so a rotation elsewhere is seen. While
// a poll fails (on Citus, a worker down: the poll reads every shard), the cache of verified tokens
// is set aside, so that a token revoked on another instance is not accepted from it meanwhile:
// each request checks its token against its own tenant's rows, which a worker down for other
// tenants does not stop (docs/operations.md, "Fault isolation").
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { VerifiedTokenCache } from './verified-token-cache.ts';

/** Told when another instance deleted a tenant, so that what this one cached of it goes too. */
export type TenantInvalidatedListener = (tenantId: number) => void;

const POLL_INTERVAL_MS = 2_000;
const KEY_RELOAD_EVERY_POLLS = 15;
/** Invalidations read per poll at most. */
const BATCH = 1000;

export class InvalidationPoll {
  private readonly db: DatabaseHandle;
  private readonly keys: SigningKeys;
  private readonly cache: VerifiedTokenCache;
  private readonly log: () => FastifyBaseLogger | undefined;
  private readonly tenantListeners: TenantInvalidatedListener[] = [];
  private lastSeq = 0;
  private polls = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    db: DatabaseHandle,
    keys: SigningKeys,
    cache: VerifiedTokenCache,
    log: () => FastifyBaseLogger | undefined,
  ) {
    this.db = db;
    this.keys = keys;
    this.cache = cache;
    this.log = log;
  }

  /** Adds a listener for tenants invalidated (deleted) on another instance. */
  onTenantInvalidated(listener: TenantInvalidatedListener): void {
    this.tenantListeners.push(listener);
  }

  async start(): Promise<void> {
    try {
      const [row] = await this.db.query<{ seq: string }>(
        'select coalesce(max(seq), 0)::text as seq from auth_invalidations',
      );
      this.lastSeq = Number(row?.seq ?? 0);
    } catch (error) {
      // A start while a Citus worker is down: the polls read from the first invalidation on,
      // and until they have caught up every token is checked against the database.
      this.cache.suspend();
      this.log()?.warn(
        { err: error },
        'token invalidations cannot be read yet; every token is checked against the database until they can',
      );
    }
    this.timer = setInterval(
      () =>
        void this.poll().catch((error: unknown) =>
          this.log()?.error(
            { err: error },
            'token invalidation poll failed; until one succeeds, every token is checked against the database',
          ),
        ),
      POLL_INTERVAL_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Applies what other instances invalidated since the last poll; when it cannot, the cache of
   * verified tokens is set aside until a poll succeeds (see the top of this file).
   */
  async poll(): Promise<void> {
    let caughtUp: boolean;
    try {
      caughtUp = await this.apply();
    } catch (error) {
      this.cache.suspend();
      throw error;
    }
    if (caughtUp) this.cache.resume();
  }

  /** Answers whether it read every invalidation there is (fewer than a full batch). */
  private async apply(): Promise<boolean> {
    this.polls++;
    const events = await this.db.query<{
      tenantId: number;
      seq: string;
      appId: string | null;
      jti: string | null;
    }>(
      `select tenant_id as "tenantId", seq::text as seq, app_id as "appId", jti
         from auth_invalidations where seq > $1 order by seq limit ${BATCH}`,
      [this.lastSeq],
    );
    for (const event of events) {
      if (event.appId === null) {
        this.cache.forgetTenant(event.tenantId);
        for (const listener of this.tenantListeners) listener(event.tenantId);
      } else this.cache.forget(event.tenantId, event.appId, event.jti);
      this.lastSeq = Number(event.seq);
    }
    if (this.polls % KEY_RELOAD_EVERY_POLLS === 0) await this.keys.load();
    return events.length < BATCH;
  }
}
