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
// whichever instance or process made it; on Citus, a commit of this instance), and otherwise
// every pollingIntervalMs. A wake on every instance at once sends nothing twice: fan-out and
// claims skip what another instance holds.
//
// A sender killed mid-delivery leaves its lease to expire; the delivery is then claimed again
// (at-least-once), and the lost claim is counted: a delivery whose sends ended their process
// crashLimit times (JOB_CRASH_LIMIT) is given up instead of being sent again, so that a poison
// delivery cannot end every instance in turn. All times come from the injected clock.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Resolver } from './address-guard.ts';
import type { DeliveryPolicy } from './delivery-policy.ts';
import { recordResult, type DisablingNeeds } from './delivery-results.ts';
import { eventId, eventJson, placeEvents, type EventRow } from './event-feed.ts';
import { matchesPatterns } from './event-types.ts';
import { sendWebhook, type SendResult } from './webhook-sender.ts';

export type DispatcherNeeds = DisablingNeeds;

export interface DispatcherOptions {
  policy: DeliveryPolicy;
  clock: () => Date;
  resolve: Resolver;
  allowedHosts: readonly string[];
  timeoutMs: number;
  pollingIntervalMs: number;
  concurrency: number;
  /** Claims lost with their sender's process after which a delivery is given up. */
  crashLimit: number;
  log: () => FastifyBaseLogger | undefined;
}

interface Claimed extends EventRow {
  tenantId: number;
  deliveryId: string;
  subscriptionId: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  attempts: number;
  /** Earlier claims whose lease ran out with no result: their sender's process ended. */
  lostClaims: number;
  firstAttemptAt: Date;
  /** False when the event is no longer kept (older than the retention period). */
  eventKept: boolean;
}

/** Events scanned per subscription per fan-out statement. */
const FAN_OUT_BATCH = 1000;
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

  constructor(db: DatabaseHandle, needs: DispatcherNeeds, options: DispatcherOptions) {
    this.db = db;
    this.needs = needs;
    this.options = options;
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
        this.options.log()?.error({ err: error }, 'webhook dispatcher step failed');
      }
      if (this.stopped) break;
      if (this.inFlight.size >= this.options.concurrency) {
        await Promise.race(this.inFlight);
      } else if (!busy) {
        // Polling is what finds work when no wake comes: writes of a process that does not
        // announce them, due retries, a listening connection that was lost.
        await this.sleep(this.options.pollingIntervalMs, true);
        const gap = this.roundStartedAt + WAKE_GAP_MS - performance.now();
        if (gap > 0 && !this.stopped) await this.sleep(gap, false);
      }
    }
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

  /** One round: prune when due, fan out, claim and start sends. Answers whether it found work. */
  async step(): Promise<boolean> {
    const now = this.options.clock();
    if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      await this.prune(now);
    }
    const fanned = await this.fanOut(now);
    const free = this.options.concurrency - this.inFlight.size;
    const claimed = free > 0 ? await this.claim(now, free) : [];
    for (const delivery of claimed) {
      const sending: Promise<void> = this.deliver(delivery)
        .catch((error: unknown) =>
          this.options.log()?.error({ err: error }, 'recording a webhook delivery failed'),
        )
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
    return fanned > 0 || claimed.length > 0;
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

  /** Gives every tenant's committed events that wait for a feed position theirs. */
  async place(): Promise<void> {
    const waiting = await this.db.query<{ tenantId: number }>(
      'select distinct tenant_id as "tenantId" from events where position is null',
    );
    for (const { tenantId } of waiting) await placeEvents(this.db, tenantId);
  }

  /**
   * Places the events waiting for a position, then turns new events into deliveries for every
   * subscription that has some; answers how many events it scanned.
   */
  async fanOut(now: Date): Promise<number> {
    await this.place();
    const behind = await this.db.query<{ tenantId: number; id: number }>(
      `select s.tenant_id as "tenantId", s.id from webhook_subscriptions s
        where s.enabled and exists (select 1 from events e
          where e.tenant_id = s.tenant_id and e.position is not null
            and (e.position, e.id) > (s.cursor_position, s.cursor_id))`,
    );
    let scanned = 0;
    for (const { tenantId, id } of behind) {
      const [row] = await this.db.query<{ n: number }>(
        `with sub as (
           select tenant_id, id, event_types, cursor_position, cursor_id from webhook_subscriptions
            where tenant_id = $1 and id = $2 and enabled for update skip locked),
         scanned as (
           select e.tenant_id, e.position, e.id, e.type, e.resource, e.resource_id, e.occurred_at
             from sub s join events e on e.tenant_id = s.tenant_id
              and (e.position, e.id) > (s.cursor_position, s.cursor_id)
            where e.tenant_id = $1 and e.position is not null
            order by e.position, e.id limit ${FAN_OUT_BATCH}),
         queued as (
           insert into webhook_deliveries (tenant_id, subscription_id, event_position, event_id, event_type,
               resource, resource_id, occurred_at, next_attempt_at, created_at)
           select e.tenant_id, s.id, e.position, e.id, e.type, e.resource, e.resource_id, e.occurred_at, $3, $3
             from scanned e cross join sub s
            where ${matchesPatterns('e.type', 's.event_types')}
            order by e.position, e.id
           returning 1),
         last as (select position, id from scanned order by position desc, id desc limit 1),
         moved as (
           update webhook_subscriptions w set cursor_position = last.position, cursor_id = last.id
             from last where w.tenant_id = $1 and w.id = $2 returning 1)
         select ((select count(*) from scanned) + 0 * (select count(*) from queued) + 0 * (select count(*) from moved))::int as n`,
        [tenantId, id, now],
      );
      scanned += row?.n ?? 0;
    }
    return scanned;
  }

  /** Leases up to `limit` due deliveries (see the top of this file). */
  async claim(now: Date, limit: number): Promise<Claimed[]> {
    const due = await this.db.query<{ tenantId: number; id: string }>(
      `select d.tenant_id as "tenantId", d.id::text as id from webhook_deliveries d
         join webhook_subscriptions s on s.tenant_id = d.tenant_id and s.id = d.subscription_id and s.enabled
        where d.state = 'pending' and d.next_attempt_at <= $1
          and (d.claimed_until is null or d.claimed_until <= $1)
          and not exists (select 1 from webhook_deliveries p
            where p.tenant_id = d.tenant_id and p.subscription_id = d.subscription_id
              and p.resource = d.resource and p.resource_id = d.resource_id
              and p.state = 'pending' and p.id < d.id)
        order by d.next_attempt_at, d.id limit $2`,
      [now, limit],
    );
    const byTenant = Map.groupBy(due, (d) => d.tenantId);
    const leased: Claimed[] = [];
    for (const [tenantId, deliveries] of byTenant)
      leased.push(
        ...(await this.lease(
          tenantId,
          deliveries.map((d) => d.id),
          now,
        )),
      );
    return leased;
  }

  /** Leases those of the tenant's deliveries that no other sender has leased meanwhile. */
  private lease(tenantId: number, ids: string[], now: Date): Promise<Claimed[]> {
    const leaseUntil = new Date(now.getTime() + this.options.policy.leaseMs);
    return this.db.query<Claimed>(
      `with due as (
         select d.id, e.data, e.id is not null as kept from webhook_deliveries d
           left join events e on e.tenant_id = d.tenant_id and e.id = d.event_id
          where d.tenant_id = $1 and d.id = any($2::bigint[]) and d.state = 'pending'
            and (d.claimed_until is null or d.claimed_until <= $3)
          for update of d skip locked)
       update webhook_deliveries d
          set claimed_until = $4, attempts = d.attempts + 1,
              lost_claims = d.lost_claims + case when d.claimed_until is null then 0 else 1 end,
              first_attempt_at = coalesce(d.first_attempt_at, $3), last_attempt_at = $3
         from due, webhook_subscriptions s, tenants t
        where d.tenant_id = $1 and d.id = due.id
          and s.tenant_id = $1 and s.id = d.subscription_id and t.id = $1
        returning d.tenant_id as "tenantId", d.id::text as "deliveryId", d.subscription_id as "subscriptionId",
          s.url, s.secret, s.previous_secret as "previousSecret",
          s.previous_secret_expires_at as "previousSecretExpiresAt",
          d.attempts, d.lost_claims as "lostClaims", d.first_attempt_at as "firstAttemptAt",
          due.kept as "eventKept",
          d.event_position::text as position, d.event_id::text as seq, d.event_type as type, t.name as tenant,
          d.occurred_at as "occurredAt", d.resource, d.resource_id as "resourceId", due.data`,
      [tenantId, ids, now, leaseUntil],
    );
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
