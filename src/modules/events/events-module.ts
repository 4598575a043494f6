// The events module: every write of the resources integrators follow records an event in its own
// transaction (database triggers each module declares in its migrations, writing the feed of
// src/db/migrations/0100_event_feed.sql); integrators read them as a feed (/management/events) or
// get them as signed webhooks (/management/webhooks), delivered by a dispatcher that runs on every
// instance (dispatcher.ts).
import { webhookHistoryRoutes } from './webhook-history-routes.ts';
import type { RawSql } from '../../db/connection/database.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import { systemResolver, type Resolver } from './address-guard.ts';
import { DeliveryLog } from './delivery-log.ts';
import { defaultPolicy, type DeliveryPolicy } from './delivery-policy.ts';
import { Dispatcher } from './dispatcher.ts';
import { DispatcherWakeups } from './dispatcher-wakeups.ts';
import { EventFeed } from './event-feed.ts';
import { eventRoutes } from './event-routes.ts';
import { SubscriptionService } from './subscription-service.ts';
import { webhookRoutes, webhooksTag } from './webhook-routes.ts';
import { eventsErrorCodes } from './events-errors.ts';

export interface EventsServices {
  feed: EventFeed;
  subscriptions: SubscriptionService;
  deliveries: DeliveryLog;
  dispatcher: Dispatcher;
  /** What wakes the dispatcher when events commit. */
  wakeups: DispatcherWakeups;
}

export interface EventsNeeds {
  /** Records an e-mail in the outbox, in the caller's transaction. */
  notify(
    sql: RawSql,
    notification: { tenantId: number; recipient: string; subject: string; body: string },
  ): Promise<unknown>;
  /** The integration endpoint's AdminMail: told when a subscription without OwnerEmail is disabled. */
  adminMail(tenantId: number): Promise<string | undefined>;
}

/** Stand-ins for tests: time, the retry schedule and DNS. */
export interface EventsOptions {
  clock?: () => Date;
  policy?: Partial<DeliveryPolicy>;
  resolve?: Resolver;
  /** The pause before the dispatcher's listening connection is made again after a loss. */
  listenRetryMs?: number;
}

export function createEventsModule(
  context: ModuleContext,
  needs: EventsNeeds,
  options: EventsOptions = {},
): AppModule<EventsServices> {
  const { config, database } = context;
  const clock = options.clock ?? (() => new Date());
  const timeoutMs = config.webhookTimeoutSeconds * 1000;
  const policy = { ...defaultPolicy(timeoutMs), ...options.policy };
  const feed = new EventFeed(database);
  const subscriptions = new SubscriptionService(database, {
    allowedHosts: config.webhookAllowedHosts,
    policy,
    clock,
  });
  const deliveries = new DeliveryLog(database, subscriptions, clock);
  // While no wake can come, a round every second at most (polling only: as set).
  const unwokenPollingIntervalMs =
    config.webhookWake === 'poll'
      ? config.webhookPollingIntervalMs
      : Math.min(config.webhookPollingIntervalMs, 1000);
  const dispatcher = new Dispatcher(
    database,
    {
      notify: (sql, notification) => needs.notify(sql, notification),
      fallbackRecipient: (tenantId) => needs.adminMail(tenantId),
    },
    {
      policy,
      clock,
      resolve: options.resolve ?? systemResolver,
      allowedHosts: config.webhookAllowedHosts,
      timeoutMs,
      pollingIntervalMs: config.webhookPollingIntervalMs,
      unwokenPollingIntervalMs,
      concurrency: config.webhookConcurrency,
      crashLimit: config.jobCrashLimit,
      log: context.log,
    },
  );
  const wakeups = new DispatcherWakeups(database, dispatcher, {
    mode: config.webhookWake,
    pollingIntervalMs: unwokenPollingIntervalMs,
    ...(options.listenRetryMs === undefined ? {} : { retryMs: options.listenRetryMs }),
    log: context.log,
  });
  return {
    name: 'events',
    errorCodes: eventsErrorCodes,
    // Webhooks and the event feed are integration settings, with data of every area.
    permissions: { area: 'integration' },
    openApiTags: [webhooksTag],
    services: { feed, subscriptions, deliveries, dispatcher, wakeups },
    routes: async (app) => {
      await app.register(webhookRoutes, { subscriptions, deliveries });
      await app.register(eventRoutes, { feed });
      await app.register(webhookHistoryRoutes, { subscriptions, database });
    },
    start: async () => {
      dispatcher.start();
      await wakeups.start();
    },
    stop: async () => {
      await wakeups.stop();
      await dispatcher.stop();
    },
  };
}
