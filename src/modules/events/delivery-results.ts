// What becomes of a delivery once it was sent (or given up without a send), in one transaction:
// success ends it and clears the subscription's failing mark; failure schedules the next attempt
// (backoff with jitter) or, past the retry window or when given up, fails it; a subscription
// failing for disableAfterMs is disabled and its owner told through the outbox.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { retryDelayMs, type DeliveryPolicy } from './delivery-policy.ts';
import type { SendResult } from './webhook-sender.ts';

/** Whom the dispatcher tells about a disabled subscription, and how. */
export interface DisablingNeeds {
  /** Records an e-mail in the outbox, in the caller's transaction. */
  notify(
    sql: RawSql,
    notification: { tenantId: number; recipient: string; subject: string; body: string },
  ): Promise<unknown>;
  /** Whom to tell about a tenant's webhooks when a subscription names nobody. */
  fallbackRecipient(tenantId: number): Promise<string | undefined>;
}

/** What recording needs to know of a leased delivery. */
export interface RecordedDelivery {
  tenantId: number;
  deliveryId: string;
  subscriptionId: number;
  /** The tenant's name. */
  tenant: string;
  attempts: number;
  firstAttemptAt: Date;
}

export async function recordResult(
  db: DatabaseHandle,
  needs: DisablingNeeds,
  policy: DeliveryPolicy,
  log: () => FastifyBaseLogger | undefined,
  delivery: RecordedDelivery,
  now: Date,
  result: SendResult,
  giveUp: boolean,
): Promise<void> {
  const succeeded = result.error === undefined;
  const expired = now.getTime() - delivery.firstAttemptAt.getTime() >= policy.retryWindowMs;
  const state = succeeded ? 'succeeded' : giveUp || expired ? 'failed' : 'pending';
  const next =
    state === 'pending' ? new Date(now.getTime() + retryDelayMs(policy, delivery.attempts)) : now;
  const disableBefore = new Date(now.getTime() - policy.disableAfterMs);
  const disabled = await db.rawTransaction(async (sql) => {
    await sql.query(
      `update webhook_deliveries set state = $3, next_attempt_at = $4, claimed_until = null,
         response_status = $5, duration_ms = $6, last_error = $7
       where tenant_id = $1 and id = $2`,
      [
        delivery.tenantId,
        delivery.deliveryId,
        state,
        next,
        result.status ?? null,
        result.durationMs,
        result.error ?? null,
      ],
    );
    if (succeeded) {
      await sql.query(
        'update webhook_subscriptions set failing_since = null where tenant_id = $1 and id = $2 and failing_since is not null',
        [delivery.tenantId, delivery.subscriptionId],
      );
      return undefined;
    }
    const [sub] = await sql.query<{
      enabled: boolean;
      failingSince: Date | null;
      ownerEmail: string | null;
      url: string;
    }>(
      `select enabled, failing_since as "failingSince", owner_email as "ownerEmail", url
         from webhook_subscriptions where tenant_id = $1 and id = $2 for update`,
      [delivery.tenantId, delivery.subscriptionId],
    );
    if (!sub) return undefined;
    const failingSince = sub.failingSince ?? now;
    const disable = sub.enabled && failingSince <= disableBefore;
    await sql.query(
      `update webhook_subscriptions set failing_since = $3,
         enabled = enabled and not $4, version = version + case when $4 then 1 else 0 end,
         disabled_reason = case when $4 then $5 else disabled_reason end,
         updated_at = case when $4 then $6 else updated_at end
       where tenant_id = $1 and id = $2`,
      [
        delivery.tenantId,
        delivery.subscriptionId,
        failingSince,
        disable,
        `Disabled on ${now.toISOString()}: its deliveries failed for ${describeDuration(policy.disableAfterMs)} with no success.`,
        now,
      ],
    );
    if (!disable) return undefined;
    const recipient = sub.ownerEmail ?? (await needs.fallbackRecipient(delivery.tenantId));
    if (recipient) {
      await needs.notify(sql, {
        tenantId: delivery.tenantId,
        recipient,
        subject: `Webhook subscription ${delivery.subscriptionId} was disabled`,
        body: `The webhook subscription ${delivery.subscriptionId} of tenant ${delivery.tenant} (${sub.url}) failed every delivery for ${describeDuration(policy.disableAfterMs)} and was disabled. Last error: ${result.error}. Enable it again with PUT /management/webhooks/${delivery.subscriptionId} and "Enabled": true; replay what it missed with POST /management/webhooks/${delivery.subscriptionId}/replay.`,
      });
    }
    return { recipient };
  });
  if (disabled)
    log()?.warn(
      {
        tenantId: delivery.tenantId,
        subscriptionId: delivery.subscriptionId,
        told: disabled.recipient ?? null,
      },
      'webhook subscription disabled after failing',
    );
}

function describeDuration(ms: number): string {
  const days = ms / 86_400_000;
  if (days >= 1) return `${Math.round(days * 10) / 10} days`;
  const hours = ms / 3_600_000;
  if (hours >= 1) return `${Math.round(hours * 10) / 10} hours`;
  return `${Math.round(ms / 1000)} seconds`;
}
