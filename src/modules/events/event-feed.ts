// The events the database records (the feed of src/db/migrations/0100_event_feed.sql) as
// integrators read them: a feed per tenant in (transaction, sequence) order, of which a reader only
// sees the part that no running transaction can still add to.
import type { DatabaseHandle } from '../../db/database.ts';
import { invalidEventId } from './events-errors.ts';

/** Where in the feed an event is: its transaction's id and its sequence number. */
export interface FeedPosition {
  tx: bigint;
  seq: bigint;
}

/** An event's Id: `evt_` and both halves of its position in hex, so that Ids sort as the feed. */
export function eventId({ tx, seq }: FeedPosition): string {
  return `evt_${tx.toString(16).padStart(16, '0')}${seq.toString(16).padStart(16, '0')}`;
}

export const EVENT_ID_PATTERN = '^evt_[0-9a-f]{32}$';

export function positionOf(id: string): FeedPosition {
  if (!new RegExp(EVENT_ID_PATTERN).test(id)) throw invalidEventId(id);
  return { tx: BigInt(`0x${id.slice(4, 20)}`), seq: BigInt(`0x${id.slice(20)}`) };
}

/** The snapshot's horizon: events of transactions below it are final (committed or gone). */
export const VISIBLE_HORIZON = 'pg_snapshot_xmin(pg_current_snapshot())::text::bigint';

export interface EventRow {
  tx: string;
  seq: string;
  type: string;
  tenant: string;
  occurredAt: Date;
  resource: string;
  resourceId: string;
  data: string;
}

/** The columns of an EventRow, of events `e` joined with tenants `t`. */
export const EVENT_COLUMNS = `e.tx_id::text as tx, e.id::text as seq, e.type, t.name as tenant,
  e.occurred_at as "occurredAt", e.resource, e.resource_id as "resourceId", e.data`;

/** The event as integrators get it, in the feed and as a webhook's body: compact JSON text. */
export function eventJson(row: EventRow): string {
  return `{"Id":${JSON.stringify(eventId({ tx: BigInt(row.tx), seq: BigInt(row.seq) }))},"Type":${JSON.stringify(row.type)},"TenantId":${JSON.stringify(row.tenant)},"OccurredAt":${JSON.stringify(row.occurredAt.toISOString())},"Resource":${JSON.stringify(row.resource)},"ResourceId":${JSON.stringify(row.resourceId)},"Data":${row.data}}`;
}

export interface WireEvent {
  Id: string;
  Type: string;
  TenantId: string;
  OccurredAt: string;
  Resource: string;
  ResourceId: string;
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
    const from = after ? positionOf(after) : { tx: -1n, seq: -1n };
    const rows = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events e join tenants t on t.id = e.tenant_id
        where e.tenant_id = $1 and (e.tx_id, e.id) > ($2::bigint, $3::bigint)
          and e.tx_id < ${VISIBLE_HORIZON}
        order by e.tx_id, e.id limit $4`,
      [tenantId, from.tx.toString(), from.seq.toString(), take + 1],
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
