// The webhook dispatcher's fan-out (dispatcher.ts): the committed events that wait for a feed
// position get theirs, tenant by tenant, then each enabled subscription behind the feed turns
// the events past its cursor that its types match into delivery rows, in feed order, and moves
// its cursor, in one transaction of one tenant's rows that skips a subscription another
// instance is fanning out. The searches across tenants read those of `scope` only when it is given
// (dispatcher-scopes.ts), each table restricted to them: Citus prunes a table's shards by its own
// conditions, not by a join's.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { Scope } from './dispatcher-scopes.ts';
import { placeEvents } from './event-feed.ts';
import { matchesPatterns } from './event-types.ts';

/** Events scanned per subscription per fan-out statement. */
const FAN_OUT_BATCH = 1000;

/** Gives the committed events that wait for a feed position theirs, tenant by tenant. */
export async function placeWaitingEvents(db: RawSql, scope?: Scope): Promise<void> {
  const waiting = await db.query<{ tenantId: number }>(
    `select distinct tenant_id as "tenantId" from events where position is null
      ${scope ? 'and tenant_id = any($1::int[])' : ''}`,
    scope ? [scope] : [],
  );
  for (const { tenantId } of waiting) await placeEvents(db, tenantId);
}

/**
 * Places the events waiting for a position, then turns new events into deliveries for every
 * subscription that has some; answers how many events it scanned.
 */
export async function fanOutEvents(db: DatabaseHandle, now: Date, scope?: Scope): Promise<number> {
  await placeWaitingEvents(db, scope);
  const behind = await db.query<{ tenantId: number; id: number }>(
    `select s.tenant_id as "tenantId", s.id from webhook_subscriptions s
      where s.enabled ${scope ? 'and s.tenant_id = any($1::int[])' : ''}
        and exists (select 1 from events e
        where e.tenant_id = s.tenant_id and e.position is not null
          ${scope ? 'and e.tenant_id = any($1::int[])' : ''}
          and (e.position, e.id) > (s.cursor_position, s.cursor_id))`,
    scope ? [scope] : [],
  );
  let scanned = 0;
  for (const { tenantId, id } of behind) scanned += await fanOutSubscription(db, tenantId, id, now);
  return scanned;
}

interface ScannedEvent {
  position: string;
  id: string;
  type: string;
  resource: string;
  resourceId: string;
  occurredAt: string;
  wanted: boolean;
}

/**
 * One subscription's fan-out, in one transaction of the tenant's rows: the subscription locked
 * (skipped when another instance holds it), the events past its cursor read and the cursor moved
 * past them, then a delivery inserted for each event its types match, in feed order. Two router
 * statements: on Citus an INSERT … SELECT in the same statement is planned in steps whose
 * results go through the coordinator to every worker, so that one worker down stopped every
 * tenant's fan-out.
 */
async function fanOutSubscription(
  db: DatabaseHandle,
  tenantId: number,
  subscriptionId: number,
  now: Date,
): Promise<number> {
  return db.rawTransaction(async (sql) => {
    const events = await sql.query<ScannedEvent>(
      `with sub as (
         select tenant_id, id, event_types, cursor_position, cursor_id from webhook_subscriptions
          where tenant_id = $1 and id = $2 and enabled for update skip locked),
       scanned as (
         select e.position, e.id, e.type, e.resource, e.resource_id, e.occurred_at,
                ${matchesPatterns('e.type', 's.event_types')} as wanted
           from sub s join events e on e.tenant_id = s.tenant_id
            and (e.position, e.id) > (s.cursor_position, s.cursor_id)
          where e.tenant_id = $1 and e.position is not null
          order by e.position, e.id limit ${FAN_OUT_BATCH}),
       last as (select position, id from scanned order by position desc, id desc limit 1),
       moved as (
         update webhook_subscriptions w set cursor_position = last.position, cursor_id = last.id
           from last where w.tenant_id = $1 and w.id = $2 returning 1)
       select position::text, id::text, type, resource, resource_id as "resourceId",
              occurred_at::text as "occurredAt", wanted, (select count(*) from moved) as moved
         from scanned order by scanned.position, scanned.id`,
      [tenantId, subscriptionId],
    );
    const wanted = events.filter((event) => event.wanted);
    if (wanted.length > 0)
      await sql.query(
        `insert into webhook_deliveries (tenant_id, subscription_id, event_position, event_id,
             event_type, resource, resource_id, occurred_at, next_attempt_at, created_at)
         select $1, $2, u.position, u.id, u.type, u.resource, u.resource_id, u.occurred_at, $3, $3
           from unnest($4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::timestamptz[])
                with ordinality as u (position, id, type, resource, resource_id, occurred_at, n)
          order by u.n`,
        [
          tenantId,
          subscriptionId,
          now,
          wanted.map((e) => e.position),
          wanted.map((e) => e.id),
          wanted.map((e) => e.type),
          wanted.map((e) => e.resource),
          wanted.map((e) => e.resourceId),
          wanted.map((e) => e.occurredAt),
        ],
      );
    return events.length;
  });
}
