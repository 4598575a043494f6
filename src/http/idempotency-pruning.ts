// Keys past their expiry (IDEMPOTENCY_KEY_TTL_SECONDS after their first request) no longer
// answer anything; a scheduled job deletes them, once across instances, so the table holds
// about one day of keys. app.ts defines it on the job queue (http/ does not import jobs/).
import type { FastifyBaseLogger } from 'fastify';
import type { IdempotencyStore } from './idempotency-store.ts';

export const IDEMPOTENCY_PRUNE_QUEUE = 'idempotency.prune';

export function idempotencyPruneQueue(
  store: IdempotencyStore,
  log: () => FastifyBaseLogger | undefined,
) {
  return {
    name: IDEMPOTENCY_PRUNE_QUEUE,
    handler: async () => {
      const pruned = await store.prune();
      log()?.info({ pruned }, 'expired idempotency keys pruned');
    },
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: 600,
    concurrency: 1,
    cron: '*/10 * * * *',
  };
}
