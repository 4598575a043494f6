// The delivery log of a subscription (status, response code, duration, attempts) and manual
// replays: of one delivery, or of every event of a time range that the subscription takes.
// A replay is a new delivery of the same event (same webhook-id), queued behind the deliveries
// of its resource still pending.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { Page } from '../../db/queries/paged-list.ts';
import { deliveryNotFound, eventGone, invalidReplayRange } from './events-errors.ts';
import { eventId, placeEvents } from './event-feed.ts';
import { matchesPatterns } from './event-types.ts';
import type { Delivery } from './events-schemas.ts';
import type { SubscriptionService } from './subscription-service.ts';

interface DeliveryRow {
  id: string;
  subscriptionId: number;
  position: string;
  seq: string;
  eventType: string;
  resource: string;
  resourceId: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  replayOf: string | null;
  createdAt: Date;
}

const COLUMNS = `id::text, subscription_id as "subscriptionId", event_position::text as position, event_id::text as seq,
  event_type as "eventType", resource, resource_id as "resourceId", state, attempts,
  response_status as "responseStatus", duration_ms as "durationMs", last_error as "lastError",
  next_attempt_at as "nextAttemptAt", last_attempt_at as "lastAttemptAt", replay_of::text as "replayOf",
  created_at as "createdAt"`;

const STATUS = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;
const STATE = { Pending: 'pending', Succeeded: 'succeeded', Failed: 'failed' } as const;

function toWire(row: DeliveryRow): Delivery {
  return {
    Id: Number(row.id),
    SubscriptionId: row.subscriptionId,
    EventId: eventId({ position: BigInt(row.position), seq: BigInt(row.seq) }),
    EventType: row.eventType,
    Resource: row.resource,
    ResourceId: row.resourceId,
    Status: STATUS[row.state],
    Attempts: row.attempts,
    ResponseStatusCode: row.responseStatus,
    DurationMs: row.durationMs,
    LastError: row.lastError,
    NextAttemptDate: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
    LastAttemptDate: row.lastAttemptAt?.toISOString() ?? null,
    ReplayOf: row.replayOf === null ? null : Number(row.replayOf),
    CreatedDate: row.createdAt.toISOString(),
  };
}

export class DeliveryLog {
  private readonly db: DatabaseHandle;
  private readonly subscriptions: SubscriptionService;
  private readonly clock: () => Date;

  constructor(db: DatabaseHandle, subscriptions: SubscriptionService, clock: () => Date) {
    this.db = db;
    this.subscriptions = subscriptions;
    this.clock = clock;
  }

  /** The subscription's deliveries, newest first. */
  async list(
    tenantId: number,
    subscriptionId: number,
    query: { skip: number; take: number; status?: keyof typeof STATE | undefined },
  ): Promise<Page<Delivery>> {
    await this.subscriptions.require(tenantId, subscriptionId);
    const state = query.status ? STATE[query.status] : null;
    const [rows, [total]] = await Promise.all([
      this.db.query<DeliveryRow>(
        `select ${COLUMNS} from webhook_deliveries
          where tenant_id = $1 and subscription_id = $2 and ($3::text is null or state = $3)
          order by id desc offset $4 limit $5`,
        [tenantId, subscriptionId, state, query.skip, query.take],
      ),
      this.db.query<{ n: number }>(
        `select count(*)::int as n from webhook_deliveries
          where tenant_id = $1 and subscription_id = $2 and ($3::text is null or state = $3)`,
        [tenantId, subscriptionId, state],
      ),
    ]);
    return { Results: rows.map(toWire), TotalCount: total?.n ?? 0 };
  }

  async get(tenantId: number, subscriptionId: number, id: number): Promise<Delivery> {
    await this.subscriptions.require(tenantId, subscriptionId);
    const [row] = await this.db.query<DeliveryRow>(
      `select ${COLUMNS} from webhook_deliveries where tenant_id = $1 and subscription_id = $2 and id = $3`,
      [tenantId, subscriptionId, id],
    );
    if (!row) throw deliveryNotFound(id);
    return toWire(row);
  }

  /** Queues the delivery's event again as a new delivery; answers the new one. */
  async replay(tenantId: number, subscriptionId: number, id: number): Promise<Delivery> {
    await this.subscriptions.require(tenantId, subscriptionId);
    const [original] = await this.db.query<{ kept: boolean }>(
      `select exists (select 1 from events e where e.tenant_id = $1 and e.id = d.event_id) as kept
         from webhook_deliveries d where d.tenant_id = $1 and d.subscription_id = $2 and d.id = $3`,
      [tenantId, subscriptionId, id],
    );
    if (!original) throw deliveryNotFound(id);
    if (!original.kept) throw eventGone();
    const [row] = await this.db.query<DeliveryRow>(
      `insert into webhook_deliveries (tenant_id, subscription_id, event_position, event_id, event_type,
           resource, resource_id, occurred_at, next_attempt_at, created_at, replay_of)
       select tenant_id, subscription_id, event_position, event_id, event_type, resource, resource_id,
              occurred_at, $4, $4, id
         from webhook_deliveries where tenant_id = $1 and subscription_id = $2 and id = $3
       returning ${COLUMNS}`,
      [tenantId, subscriptionId, id, this.clock()],
    );
    if (!row) throw deliveryNotFound(id);
    return toWire(row);
  }

  /**
   * Queues a new delivery of every event that occurred in [from, to) and that the subscription's
   * types match (whether or not it was delivered before); answers how many.
   */
  async replayRange(
    tenantId: number,
    subscriptionId: number,
    from: Date,
    to: Date,
  ): Promise<number> {
    if (!(from < to)) throw invalidReplayRange();
    await this.subscriptions.require(tenantId, subscriptionId);
    await placeEvents(this.db, tenantId);
    const [row] = await this.db.query<{ n: number }>(
      `with sub as (select tenant_id, id, event_types from webhook_subscriptions
                     where tenant_id = $1 and id = $2),
       queued as (
         insert into webhook_deliveries (tenant_id, subscription_id, event_position, event_id, event_type,
             resource, resource_id, occurred_at, next_attempt_at, created_at)
         select e.tenant_id, s.id, e.position, e.id, e.type, e.resource, e.resource_id, e.occurred_at, $5, $5
           from sub s join events e on e.tenant_id = s.tenant_id
          where e.occurred_at >= $3 and e.occurred_at < $4 and e.position is not null
            and ${matchesPatterns('e.type', 's.event_types')}
          order by e.position, e.id
         returning 1)
       select count(*)::int as n from queued`,
      [tenantId, subscriptionId, from, to, this.clock()],
    );
    return row!.n;
  }
}
