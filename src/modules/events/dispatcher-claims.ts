// The webhook dispatcher's claims (dispatcher.ts): the due deliveries are found across tenants,
// then leased (claimed_until) tenant by tenant, by an update that takes only those still
// unleased, so that two instances never lease one; a delivery is due only when no older delivery
// of the same resource to the same subscription is still pending, which keeps each resource's
// events in order, retries included. And when the next delivery not due yet will be, so that an
// idle dispatcher sleeps until then. The searches across tenants read those of `scope` only when
// it is given (dispatcher-scopes.ts).
import { isDatabaseUnavailable } from '../../db/connection/connection-loss.ts';
import type { RawSql } from '../../db/connection/database.ts';
import type { Scope } from './dispatcher-scopes.ts';
import type { EventRow } from './event-feed.ts';

export interface Claimed extends EventRow {
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

/** Leases up to `limit` due deliveries (see the top of this file). */
export async function claimDue(
  db: RawSql,
  now: Date,
  limit: number,
  leaseMs: number,
  scope?: Scope,
): Promise<Claimed[]> {
  const due = await db.query<{ tenantId: number; id: string }>(
    `select d.tenant_id as "tenantId", d.id::text as id from webhook_deliveries d
       join webhook_subscriptions s on s.tenant_id = d.tenant_id and s.id = d.subscription_id and s.enabled
      where d.state = 'pending' and d.next_attempt_at <= $1
        and (d.claimed_until is null or d.claimed_until <= $1)
        ${scope ? 'and d.tenant_id = any($3::int[]) and s.tenant_id = any($3::int[])' : ''}
        and not exists (select 1 from webhook_deliveries p
          where p.tenant_id = d.tenant_id and p.subscription_id = d.subscription_id
            and p.resource = d.resource and p.resource_id = d.resource_id
            and p.state = 'pending' and p.id < d.id)
      order by d.next_attempt_at, d.id limit $2`,
    scope ? [now, limit, scope] : [now, limit],
  );
  const byTenant = Map.groupBy(due, (d) => d.tenantId);
  const leased: Claimed[] = [];
  let unreachable: Error | undefined;
  for (const [tenantId, deliveries] of byTenant) {
    try {
      leased.push(
        ...(await lease(
          db,
          tenantId,
          deliveries.map((d) => d.id),
          now,
          leaseMs,
        )),
      );
    } catch (error) {
      // A tenant whose node stopped answering since the search: the others' leases are kept
      // (and sent); its deliveries wait for a round that reaches it.
      if (!isDatabaseUnavailable(error)) throw error;
      unreachable ??= error as Error;
    }
  }
  if (unreachable !== undefined && leased.length === 0) throw unreachable;
  return leased;
}

/** Leases those of the tenant's deliveries that no other sender has leased meanwhile. */
function lease(
  db: RawSql,
  tenantId: number,
  ids: string[],
  now: Date,
  leaseMs: number,
): Promise<Claimed[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return db.query<Claimed>(
    `with due as (
       select d.id, e.data, e.actor, e.id is not null as kept from webhook_deliveries d
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
        d.occurred_at as "occurredAt", d.resource, d.resource_id as "resourceId", due.data, due.actor`,
    [tenantId, ids, now, leaseUntil],
  );
}

/**
 * When the first pending delivery not due now becomes due (its next attempt, or the end of its
 * lease), as clock ms; undefined when there is none. One that waits for an older one of its
 * resource becomes due when that one is recorded, which wakes the recording dispatcher.
 */
export async function nextDue(db: RawSql, now: Date, scope?: Scope): Promise<number | undefined> {
  const [row] = await db.query<{ at: Date | null }>(
    `select min(greatest(d.next_attempt_at, coalesce(d.claimed_until, d.next_attempt_at))) as at
       from webhook_deliveries d
       join webhook_subscriptions s on s.tenant_id = d.tenant_id and s.id = d.subscription_id and s.enabled
      where d.state = 'pending'
        and greatest(d.next_attempt_at, coalesce(d.claimed_until, d.next_attempt_at)) > $1
        ${scope ? 'and d.tenant_id = any($2::int[]) and s.tenant_id = any($2::int[])' : ''}`,
    scope ? [now, scope] : [now],
  );
  return row?.at ? new Date(row.at).getTime() : undefined;
}
