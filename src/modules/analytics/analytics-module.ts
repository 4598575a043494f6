// The analytics module (contract §5.6): ingestion of every counter's logs, keyset log pages,
// summaries, the tenant's analytics time zone and trending items; the monthly partitions of
// analytics_logs are kept ahead by a daily job.
import type { AppModule, ModuleContext } from '../../module.ts';
import { detachPartitionsBefore, ensurePartitions } from './analytics-partitions.ts';
import { analyticsRoutes, analyticsTag, TRENDING_QUEUE } from './analytics-routes.ts';
import { AnalyticsService, type DeviceStamp } from './analytics-service.ts';
import { TrendingService } from './analytics-trending.ts';
import { analyticsErrorCodes } from './analytics-errors.ts';

/** Its commands of the CLI (src/main.ts). */
export { analyticsCommands } from './analytics-commands.ts';

export interface AnalyticsNeeds {
  /** The physical device of an identity token, with its store (company module). */
  deviceStamp: DeviceStamp;
}

export interface AnalyticsServices {
  analytics: AnalyticsService;
  trending: TrendingService;
  ensurePartitions: (from?: Date) => Promise<string[]>;
  detachPartitionsBefore: (month: string) => Promise<string[]>;
}

export const DAILY_QUEUE = 'analytics-daily';

export function createAnalyticsModule(
  context: ModuleContext,
  needs: AnalyticsNeeds,
): AppModule<AnalyticsServices> {
  const db = context.database;
  const services: AnalyticsServices = {
    analytics: new AnalyticsService(db, needs.deviceStamp),
    trending: new TrendingService(db),
    ensurePartitions: (from) => ensurePartitions(db, from),
    detachPartitionsBefore: (month) => detachPartitionsBefore(db, month),
  };
  return {
    name: 'analytics',
    errorCodes: analyticsErrorCodes,
    permissions: { area: 'analytics' },
    openApiTags: [analyticsTag],
    services,
    routes: async (app) => {
      await app.register(analyticsRoutes, {
        analytics: services.analytics,
        trending: services.trending,
        jobs: context.jobs,
        // A full batch of 1000 records of the widest counter is about 1 MiB.
        bodyLimit: Math.max(context.config.jsonBodyLimitBytes, 4 * 1024 * 1024),
      });
    },
    queues: [
      {
        // Once a day across instances: the coming months' partitions, then yesterday's
        // trending items of every tenant (yesterday in each tenant's time zone).
        name: DAILY_QUEUE,
        cron: '15 0 * * *',
        retryLimit: 3,
        retryDelaySeconds: 60,
        expireInSeconds: 3600,
        concurrency: 1,
        handler: async () => {
          const created = await services.ensurePartitions();
          if (created.length) context.log()?.info({ partitions: created }, 'analytics partitions');
          await services.trending.runAll();
        },
      },
      {
        name: TRENDING_QUEUE,
        retryLimit: 3,
        retryDelaySeconds: 10,
        expireInSeconds: 900,
        concurrency: 1,
        handler: async (data: { tenantId: number; date: string }) => {
          await services.trending.run(data.tenantId, data.date);
        },
      },
    ],
    // The current month and the next three exist from the release step on (or the first start,
    // where a start migrates); the daily job makes each next month's ahead of time.
    async release() {
      await services.ensurePartitions();
    },
    async start() {
      if (context.config.migrateOnStart) await services.ensurePartitions();
    },
  };
}
