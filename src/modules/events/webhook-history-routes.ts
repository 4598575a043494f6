// The change history of a webhook subscription at its own path (docs/api.md, "Change history").
// Its signing secret never appears (only as the marker "changed" when it was rotated).
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import { SubscriptionParams } from './events-schemas.ts';
import { subscriptionNotFound } from './events-errors.ts';
import type { SubscriptionService } from './subscription-service.ts';

export const webhookHistoryRoutes: FastifyPluginAsync<{
  subscriptions: SubscriptionService;
  database: RawSql;
}> = async (app, { subscriptions, database }) => {
  registerHistoryRoutes(app, {
    url: '/management/webhooks/:id',
    resource: 'webhook_subscription',
    name: 'Webhook',
    params: SubscriptionParams,
    resourceId: (params) => String(params.id),
    exists: (tenantId, params) => existsBy(() => subscriptions.get(tenantId, params.id as number)),
    notFound: (params) => subscriptionNotFound(params.id as number),
    database,
  });
};
