// The history module (docs/api.md, "Change history"): the change history that every module's
// triggers write (src/db/migrations/0320_change_history.sql, src/db/sql/025-change-history.sql).
// It answers the tenant-wide list and owns the permission area "history", which every module's
// history routes belong to (each module declares its resources' histories at their paths:
// src/http/history-routes.ts); it seals each tenant's entries into a hash chain, verifies and
// exports them, prunes them to each tenant's retention and keeps the monthly partitions ahead.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import { historyChainRoutes } from './history-chain-routes.ts';
import { historyErrorCodes } from './history-errors.ts';
import { dropEmptyHistoryPartitions, ensureHistoryPartitions } from './history-partitions.ts';
import { HistoryRetention } from './history-retention.ts';
import { historyRoutes, historyTag } from './history-routes.ts';
import { HistorySealer } from './history-sealing.ts';
import { HistoryService } from './history-service.ts';

/** Its commands of the CLI (src/main.ts). */
export { historyCommands } from './history-commands.ts';

export interface HistoryServices {
  history: HistoryService;
  /** The database its commands read (export, verify). */
  database: DatabaseHandle;
  sealer: HistorySealer;
  retention: HistoryRetention;
  ensurePartitions: (from?: Date) => Promise<string[]>;
  /** The daily job's work: partitions ahead, pruning, emptied months dropped. */
  daily: (now?: Date) => Promise<{ created: string[]; pruned: number; dropped: string[] }>;
}

export const HISTORY_DAILY_QUEUE = 'history-daily';

export function createHistoryModule(context: ModuleContext): AppModule<HistoryServices> {
  const { config, database } = context;
  const history = new HistoryService(database);
  const sealer = new HistorySealer(database, {
    intervalMs: config.historySealIntervalMs,
    batch: config.historySealBatch,
    log: context.log,
  });
  const retention = new HistoryRetention(database, config.historyRetentionDays);
  const services: HistoryServices = {
    history,
    database,
    sealer,
    retention,
    ensurePartitions: (from) => ensureHistoryPartitions(database, from),
    daily: async (now = new Date()) => {
      const created = await ensureHistoryPartitions(database, now);
      // What is sealed can be pruned: seal first what the last passes left.
      for (let more = true; more;) more = await sealer.sealAll();
      const pruned = await retention.pruneAll(now);
      const dropped = await dropEmptyHistoryPartitions(database, now);
      return { created, pruned, dropped };
    },
  };
  return {
    name: 'history',
    errorCodes: historyErrorCodes,
    permissions: { area: 'history' },
    openApiTags: [historyTag],
    services,
    routes: async (app) => {
      await app.register(historyRoutes, { history });
      await app.register(historyChainRoutes, { database, retention });
    },
    queues: [
      {
        // Once a day across instances.
        name: HISTORY_DAILY_QUEUE,
        cron: '45 0 * * *',
        retryLimit: 3,
        retryDelaySeconds: 60,
        expireInSeconds: 3600,
        concurrency: 1,
        handler: async () => {
          const done = await services.daily();
          if (done.created.length || done.pruned || done.dropped.length)
            context.log()?.info(done, 'change history: partitions and retention');
        },
      },
    ],
    // The current month and the next three exist from the release step on (or the first start,
    // where a start migrates); the daily job makes each next month's ahead of time.
    async release() {
      await services.ensurePartitions();
    },
    async start() {
      if (config.migrateOnStart) await services.ensurePartitions();
      sealer.start();
    },
    async stop() {
      await sealer.stop();
    },
  };
}
