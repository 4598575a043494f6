// Turns events into webhook deliveries and sends them, on every instance, each delivery by one
// sender at a time:
//
// 1. Placing: the committed events that wait for a feed position get theirs (placeEvents), tenant
//    by tenant.
// 2. Fan-out: each enabled subscription has a cursor in the event feed; events past it that
//    match its types become delivery rows, in feed order, and the cursor moves, in one statement
//    (of one tenant's rows) that skips a subscription another instance is fanning out.
// 3. Claim: due deliveries are found across tenants, then leased (claimed_until) tenant by
//    tenant, by an update that takes only those still unleased, so that two instances never
//    lease one; a delivery is due only when no older delivery of the same resource to the same
//    subscription is still pending, which keeps each resource's events in order, retries included.
// 4. Send and record (delivery-results.ts): success ends the delivery; failure schedules the next
//    attempt (backoff with jitter) or gives it up after the retry window, and a subscription
//    failing for disableAfterMs is disabled and its owner told through the outbox.
//
// A round runs as soon as a wake comes (dispatcher-wakeups.ts: a commit that recorded events,
// whichever instance or process made it; on Citus, a commit of this instance; a send recorded),
// at the time the last round found the next retry or lease due, and otherwise every
// pollingIntervalMs (30 s by default while wakes come, so that an idle instance reads every
// shard twice a minute, not every second: docs/operations.md, "Citus"), or every
// unwokenPollingIntervalMs while they do not. A wake on every instance at once sends nothing
// twice: fan-out and claims skip what another instance holds. The searches across tenants read
// all of them at once, or each Citus worker's on their own while one cannot be reached
// (dispatcher-scopes.ts).
//
// A sender killed mid-delivery leaves its lease to expire; the delivery is then claimed again
// (at-least-once), and the lost claim is counted: a delivery whose sends ended their process
// crashLimit times (JOB_CRASH_LIMIT) is given up instead of being sent again, so that a poison
// delivery cannot end every instance in turn. All times come from the injected clock.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { Resolver } from './address-guard.ts';
import type { DeliveryPolicy } from './delivery-policy.ts';
import { recordResult, type DisablingNeeds } from './delivery-results.ts';
import { ScanScopes, type Scope } from './dispatcher-scopes.ts';
import { claimDue, nextDue, type Claimed } from './dispatcher-claims.ts';
import { fanOutEvents, placeWaitingEvents } from './dispatcher-fan-out.ts';
import { eventId, eventJson } from './event-feed.ts';
import { sendWebhook, type SendResult } from './webhook-sender.ts';

export type DispatcherNeeds = DisablingNeeds;

export interface DispatcherOptions {
  policy: DeliveryPolicy;
  clock: () => Date;
  resolve: Resolver;
  allowedHosts: readonly string[];
  timeoutMs: number;
  /** How often a round runs when nothing wakes the dispatcher while wakes come. */
  pollingIntervalMs: number;
  /**
   * How often a round runs while no wake can come (polling only, a listening connection lost,
   * before it listens), after a round that failed, and while a Citus worker cannot be reached.
   */
  unwokenPollingIntervalMs: number;
  concurrency: number;
  /** Claims lost with their sender's process after which a delivery is given up. */
  crashLimit: number;
  log: () => FastifyBaseLogger | undefined;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * The least time from the start of one round to the start of a round a wake begins: every
 * instance hears every commit that recorded events, so a stream of them runs a round this often
 * at most, not one per commit.
 */
const WAKE_GAP_MS = 25;

export class Dispatcher {
  private readonly db: DatabaseHandle;
  private readonly needs: DispatcherNeeds;
  private readonly options: DispatcherOptions;
  private readonly inFlight = new Set<Promise<void>>();
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Ends the current sleep (stop() does). */
  private endSleep: (() => void) | undefined;
  /** Ends the current sleep if a wake may end it. */
  private endWakeableSleep: (() => void) | undefined;
  /** Whether a wake came since the current round began. */
  private woken = false;
  private roundStartedAt = 0;
  private lastPrune = 0;
  private readonly scopes: ScanScopes;
  /** Whether wakes come (dispatcher-wakeups.ts says). */
  private wakesCome = false;
  /** The earliest time (clock ms) a delivery the last round saw becomes due, if any. */
  private nextDueAt: number | undefined;
  /** Whether the last round failed, or left out the tenants of a worker that did not answer. */
  private lastRoundIncomplete = false;

  constructor(db: DatabaseHandle, needs: DispatcherNeeds, options: DispatcherOptions) {
    this.db = db;
    this.needs = needs;
    this.options = options;
    this.scopes = new ScanScopes(db, options.log);
  }

  /** Told whether wakes come now: while they do, an idle dispatcher polls far less often. */
  setWakesCome(coming: boolean): void {
    this.wakesCome = coming;
  }

  start(): void {
    this.stopped = false;
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endSleep?.();
    await this.running;
    this.running = undefined;
    // Sends under way finish (each bounded by the timeout); their results are recorded.
    await Promise.all(this.inFlight);
  }

  /** Waits until the sends under way have been recorded. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /**
   * Runs a round soon: at once if the loop sleeps, after the current round if one runs (it may
   * have looked before the wake's commit). Called when events committed, and after a send was
   * recorded, which may make the next delivery of the same resource due.
   */
  wake(): void {
    this.woken = true;
    this.endWakeableSleep?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      this.woken = false;
      this.roundStartedAt = performance.now();
      try {
        busy = await this.step();
      } catch (error) {
        this.lastRoundIncomplete = true;
        this.options.log()?.error({ err: error }, 'webhook dispatcher step failed');
      }
      if (this.stopped) break;
      if (this.inFlight.size >= this.options.concurrency) {
        await Promise.race(this.inFlight);
      } else if (!busy) {
        await this.sleep(this.idleMs(), true);
        const gap = this.roundStartedAt + WAKE_GAP_MS - performance.now();
        if (gap > 0 && !this.stopped) await this.sleep(gap, false);
      }
    }
  }

  /**
   * How long an idle dispatcher waits for a wake before it looks by itself: until the next retry
   * or lease the last round saw is due, and at most the polling interval. Polling is what finds
   * work no wake announced: writes of a process that does not announce them (on Citus, other
   * processes'), a delivery another instance left, what a listening connection missed while lost.
   */
  private idleMs(): number {
    const poll =
      this.wakesCome && !this.lastRoundIncomplete
        ? this.options.pollingIntervalMs
        : this.options.unwokenPollingIntervalMs;
    if (this.nextDueAt === undefined) return poll;
    return Math.min(poll, Math.max(0, this.nextDueAt - this.options.clock().getTime()));
  }

  /** Waits ms, or less when stop() ends it or, if `wakeable`, a wake (one that came already too). */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (wakeable && this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.endSleep = undefined;
        this.endWakeableSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endSleep = done;
      if (wakeable) this.endWakeableSleep = done;
    });
  }

  /**
   * One round: prune when due, fan out, claim and start sends, and, when nothing was due, find
   * when the next delivery will be. Answers whether it found work.
   */
  async step(): Promise<boolean> {
    const now = this.options.clock();
    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      // Across tenants (every shard on Citus): a failure waits for the next hour, and holds
      // back no webhook.
      await this.prune(now).catch((error: unknown) =>
        this.options.log()?.warn({ err: error }, 'pruning old events and deliveries failed'),
      );
    }
    let free = this.options.concurrency - this.inFlight.size;
    const { results, unreachable } = await this.scopes.run(async (scope) => {
      const fanned = await this.fanOut(now, scope);
      const claimed = free > 0 ? await this.claim(now, free, scope) : [];
      free -= claimed.length;
      // Started at once: a later search that fails strands no lease.
      for (const delivery of claimed) this.send(delivery);
      const nextDue = claimed.length === 0 ? await this.nextDue(now, scope) : undefined;
      return { found: fanned > 0 || claimed.length > 0, nextDue };
    });
    this.lastRoundIncomplete = unreachable > 0;
    const dues = results.flatMap((r) => (r.nextDue === undefined ? [] : [r.nextDue]));
    this.nextDueAt = dues.length > 0 ? Math.min(...dues) : undefined;
    return results.some((r) => r.found);
  }

  private send(delivery: Claimed): void {
    const sending: Promise<void> = this.deliver(delivery)
      .catch((error: unknown) =>
        this.options.log()?.error({ err: error }, 'recording a webhook delivery failed'),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  /** When the next delivery not due now becomes due (dispatcher-claims.ts). */
  nextDue(now: Date, scope?: Scope): Promise<number | undefined> {
    return nextDue(this.db, now, scope);
  }

  /** Removes events and delivery records older than the retention period. */
  async prune(now: Date): Promise<void> {
    const before = new Date(now.getTime() - this.options.policy.retentionMs);
    await this.db.query('delete from events where occurred_at < $1', [before]);
    await this.db.query(
      "delete from webhook_deliveries where created_at < $1 and state <> 'pending'",
      [before],
    );
  }

  /** Gives the committed events that wait for a feed position theirs, tenant by tenant. */
  place(scope?: Scope): Promise<void> {
    return placeWaitingEvents(this.db, scope);
  }

  /**
   * Places the events waiting for a position, then turns new events into deliveries for every
   * subscription that has some; answers how many events it scanned.
   */
  fanOut(now: Date, scope?: Scope): Promise<number> {
    return fanOutEvents(this.db, now, scope);
  }

  /** Leases up to `limit` due deliveries (dispatcher-claims.ts). */
  claim(now: Date, limit: number, scope?: Scope): Promise<Claimed[]> {
    return claimDue(this.db, now, limit, this.options.policy.leaseMs, scope);
  }

  private async deliver(delivery: Claimed): Promise<void> {
    const now = this.options.clock();
    if (delivery.lostClaims >= this.options.crashLimit) {
      const error = `Given up: its sends ended the server process ${delivery.lostClaims} times (JOB_CRASH_LIMIT ${this.options.crashLimit}); it is not sent again by itself.`;
      this.options
        .log()
        ?.error({ tenantId: delivery.tenantId, deliveryId: delivery.deliveryId }, error);
      await this.record(delivery, now, { status: undefined, durationMs: 0, error }, true);
      return;
    }
    if (!delivery.eventKept) {
      await this.record(
        delivery,
        now,
        {
          status: undefined,
          durationMs: 0,
          error: 'The event is no longer kept (older than the retention period).',
        },
        true,
      );
      return;
    }
    const secrets = [delivery.secret];
    if (
      delivery.previousSecret &&
      delivery.previousSecretExpiresAt &&
      delivery.previousSecretExpiresAt > now
    )
      secrets.push(delivery.previousSecret);
    const result = await sendWebhook({
      url: delivery.url,
      messageId: eventId({ position: BigInt(delivery.position), seq: BigInt(delivery.seq) }),
      payload: eventJson(delivery),
      secrets,
      timestamp: now,
      timeoutMs: this.options.timeoutMs,
      allowedHosts: this.options.allowedHosts,
      resolve: this.options.resolve,
      log: this.options.log()?.child({
        tenantId: delivery.tenantId,
        subscriptionId: delivery.subscriptionId,
        deliveryId: delivery.deliveryId,
      }),
    });
    await this.record(delivery, this.options.clock(), result, false);
  }

  private async record(
    delivery: Claimed,
    now: Date,
    result: SendResult,
    giveUp: boolean,
  ): Promise<void> {
    const { policy, log } = this.options;
    await recordResult(this.db, this.needs, policy, log, delivery, now, result, giveUp);
    this.wake();
  }
}
