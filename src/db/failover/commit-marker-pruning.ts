// On a failover pair, every write transaction leaves a commit marker (commit-outcomes.ts), needed
// only for the seconds until a lost answer is settled; a scheduled job deletes those past their
// retention, once across instances, as idempotency keys are (src/http/idempotency-pruning.ts).
// app.ts defines it on the job queue when the database has markers (db/ does not import jobs/).
import type { FastifyBaseLogger } from 'fastify';

export const COMMIT_MARKER_PRUNE_QUEUE = 'commit-markers.prune';

export function commitMarkerPruneQueue(
  prune: () => Promise<number>,
  log: () => FastifyBaseLogger | undefined,
) {
  return {
    name: COMMIT_MARKER_PRUNE_QUEUE,
    handler: async () => {
      const pruned = await prune();
      log()?.info({ pruned }, 'old commit markers pruned');
    },
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: 600,
    concurrency: 1,
    cron: '*/5 * * * *',
  };
}
