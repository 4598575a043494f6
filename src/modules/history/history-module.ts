// The history module: the change history that every module's triggers write
// (src/db/migrations/0320_change_history.sql) sealed into a hash chain per tenant, verified,
// exported and pruned to each tenant's retention; its monthly partitions kept ahead.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import { historyChainRoutes, historyChainTag } from './history-chain-routes.ts';
import { dropEmptyHistoryPartitions, ensureHistoryPartitions } from './history-partitions.ts';
import { HistoryRetention } from './history-retention.ts';
import { HistorySealer } from './history-sealing.ts';

/** Its commands of the CLI (src/main.ts). */
export { historyCommands } from './history-commands.ts';

export interface HistoryServices {
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
  const sealer = new HistorySealer(database, {
    intervalMs: config.historySealIntervalMs,
    batch: config.historySealBatch,
    log: context.log,
  });
  const retention = new HistoryRetention(database, config.historyRetentionDays);
  const services: HistoryServices = {
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
    permissions: { area: 'history' },
    openApiTags: [historyChainTag],
    services,
    routes: async (app) => {
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
