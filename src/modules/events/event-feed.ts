// The events the database records (the feed of src/db/migrations/0100_event_feed.sql) as
// integrators read them: a feed per tenant in (position, id) order. A committed event gets its
// position from the feed's sequencer (event_feed_sequence in src/db/sql/020-event-feed.sql), always
// above every position given before, so a reader that follows positions never skips one; reads
// place the tenant's waiting events first, so that a reader sees its own writes.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { invalidEventId } from './events-errors.ts';

/**
 * Where in the feed an event is: its position and its id (events kept from before positions
 * share their transaction's position, migration 0281).
 */
export interface FeedPosition {
  position: bigint;
  seq: bigint;
}

/** An event's Id: `evt_` and both halves of its place in hex, so that Ids sort as the feed. */
export function eventId({ position, seq }: FeedPosition): string {
  return `evt_${position.toString(16).padStart(16, '0')}${seq.toString(16).padStart(16, '0')}`;
}

/** Both halves are PostgreSQL bigints: 16 hex digits each, the first of them 0 to 7. */
export const EVENT_ID_PATTERN = '^evt_[0-7][0-9a-f]{15}[0-7][0-9a-f]{15}$';

export function positionOf(id: string): FeedPosition {
  if (!new RegExp(EVENT_ID_PATTERN).test(id)) throw invalidEventId(id);
  return { position: BigInt(`0x${id.slice(4, 20)}`), seq: BigInt(`0x${id.slice(20)}`) };
}

/**
 * The channel notified once a transaction that recorded events commits (record_events in
 * src/db/sql/020-event-feed.sql): what the webhook dispatchers listen on.
 */
export const EVENT_FEED_CHANNEL = 'event_feed';

/** Events placed by one call of the sequencer at most. */
const SEQUENCE_BATCH = 10_000;

/** Gives the tenant's committed events that wait for a position theirs; answers how many. */
export async function placeEvents(db: RawSql, tenantId: number): Promise<number> {
  const [row] = await db.query<{ n: number }>('select event_feed_sequence($1, $2) as n', [
    tenantId,
    SEQUENCE_BATCH,
  ]);
  return row!.n;
}

/** The tenant's last position given (0 before its first event): where "from now on" starts. */
export async function feedHead(db: RawSql, tenantId: number): Promise<bigint> {
  await placeEvents(db, tenantId);
  const [row] = await db.query<{ position: string }>(
    'select coalesce(max(position), 0)::text as position from event_feed_heads where tenant_id = $1',
    [tenantId],
  );
  return BigInt(row!.position);
}

export interface EventRow {
  position: string;
  seq: string;
  type: string;
  tenant: string;
  occurredAt: Date;
  resource: string;
  resourceId: string;
  data: string;
  /** Who made the change (JSON text, events.actor); null for events recorded before it was. */
  actor: string | null;
}

/** The columns of an EventRow, of events `e` joined with tenants `t`. */
export const EVENT_COLUMNS = `e.position::text as position, e.id::text as seq, e.type, t.name as tenant,
  e.occurred_at as "occurredAt", e.resource, e.resource_id as "resourceId", e.data, e.actor`;

/** The event as integrators get it, in the feed and as a webhook's body: compact JSON text. */
export function eventJson(row: EventRow): string {
  return `{"Id":${JSON.stringify(eventId({ position: BigInt(row.position), seq: BigInt(row.seq) }))},"Type":${JSON.stringify(row.type)},"TenantId":${JSON.stringify(row.tenant)},"OccurredAt":${JSON.stringify(row.occurredAt.toISOString())},"Resource":${JSON.stringify(row.resource)},"ResourceId":${JSON.stringify(row.resourceId)},"Actor":${actorJson(row.actor)},"Data":${row.data}}`;
}

/** Who made a change, as the change history names it (src/db/changes/change-context.ts). */
export interface WireActor {
  Type: string;
  Id?: string;
  Name?: string;
  OnBehalfOf?: WireActor;
}

/** Its fields in the order the documentation shows, from any order. */
function wireActor(actor: WireActor): WireActor {
  return {
    Type: actor.Type,
    ...(actor.Id !== undefined ? { Id: actor.Id } : {}),
    ...(actor.Name !== undefined ? { Name: actor.Name } : {}),
    ...(actor.OnBehalfOf !== undefined ? { OnBehalfOf: wireActor(actor.OnBehalfOf) } : {}),
  };
}

/**
 * The Actor of an event: compact JSON, Type first (the column holds jsonb's text, spaced and in
 * its own key order); the system's for an event recorded before events named their actor.
 */
export function actorJson(actor: string | null): string {
  if (actor === null) return '{"Type":"System"}';
  return JSON.stringify(wireActor(JSON.parse(actor) as WireActor));
}

export interface WireEvent {
  Id: string;
  Type: string;
  TenantId: string;
  OccurredAt: string;
  Resource: string;
  ResourceId: string;
  Actor: WireActor;
  Data: unknown;
}

export interface EventPage {
  Results: WireEvent[];
  HasMore: boolean;
}

export class EventFeed {
  private readonly db: DatabaseHandle;

  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  /** The tenant's events after `after` (an event Id; from the oldest kept when absent). */
  async list(tenantId: number, after: string | undefined, take: number): Promise<EventPage> {
    const from = after ? positionOf(after) : { position: -1n, seq: -1n };
    await placeEvents(this.db, tenantId);
    const rows = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events e join tenants t on t.id = e.tenant_id
        where e.tenant_id = $1 and e.position is not null
          and (e.position, e.id) > ($2::bigint, $3::bigint)
        order by e.position, e.id limit $4`,
      [tenantId, from.position.toString(), from.seq.toString(), take + 1],
    );
    return {
      Results: rows.slice(0, take).map((row) => JSON.parse(eventJson(row)) as WireEvent),
      HasMore: rows.length > take,
    };
  }

  /** Removes events that occurred before `before`; answers how many. */
  async prune(before: Date): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'with gone as (delete from events where occurred_at < $1 returning 1) select count(*)::int as n from gone',
      [before],
    );
    return row!.n;
  }
}
