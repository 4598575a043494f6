// /management/webhooks: subscriptions, their secrets, their delivery log and replays.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatchVersion, withVersionEtag } from '../../http/etag.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { PagingQuery } from '../../http/paging.ts';
import type { DeliveryLog } from './delivery-log.ts';
import {
  Delivery,
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  ReplayRangeBody,
  ReplayRangeResult,
  Subscription,
  SubscriptionBody,
  SubscriptionList,
  SubscriptionParams,
} from './events-schemas.ts';
import type { SubscriptionService } from './subscription-service.ts';

export const webhooksTag: OpenApiTag = {
  name: 'Webhooks',
  description:
    'Every change of the catalog, assets, company, apps and the integration endpoint is an ' +
    'event: read them from the event feed, or have them POSTed to your URL by a webhook ' +
    'subscription (Standard Webhooks signatures), with its delivery log and replays.',
};
const tags = [webhooksTag.name];
const BASE = '/management/webhooks';
const errors = { 404: { $ref: 'ErrorBody#' } };
const stale = { 412: { $ref: 'ErrorBody#' } };

export const webhookRoutes: FastifyPluginAsync<{
  subscriptions: SubscriptionService;
  deliveries: DeliveryLog;
}> = async (instance, { subscriptions, deliveries }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    BASE,
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook subscription (its Secret is shown in this answer only)',
        description:
          'Url is https, or http to a host:port of WEBHOOK_ALLOWED_HOSTS, without credentials ' +
          '(400 InvalidWebhookUrl); EventTypes lists event types, `{resource}.*` or `*` (400 ' +
          'UnknownEventType). Answers 201 with the subscription, its Secret (keep it to verify ' +
          'signatures), its ETag and its Location.',
        body: SubscriptionBody,
        response: { 201: Subscription },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(
        reply,
        await subscriptions.create(request.tenant.id, request.body),
      );
      return reply.code(201).header('Location', `${BASE}/${created.Id}`).send(created);
    },
  );
  app.get(
    BASE,
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhook subscriptions',
        description:
          'Without their secrets. One page at a time: skip (default 0) and take (1 to 1000, ' +
          'default 20); TotalCount counts them all.',
        querystring: PagingQuery,
        response: { 200: SubscriptionList },
      },
    },
    async (request) => subscriptions.list(request.tenant.id, request.query),
  );
  app.get(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Fetch a webhook subscription',
        description: 'Without its secret, with its ETag. 404 for an unknown id.',
        params: SubscriptionParams,
        response: { 200: Subscription, ...errors },
      },
    },
    async (request, reply) =>
      withVersionEtag(reply, await subscriptions.get(request.tenant.id, request.params.id)),
  );
  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Update a webhook subscription (Enabled: false disables it, true enables it)',
        description:
          'The same body as the create. Enabled again, it gets the events recorded from then on ' +
          '(replay what it missed) and its failure record is cleared. Answers the subscription ' +
          `with its new ETag. ${IF_MATCH_NOTE}`,
        params: SubscriptionParams,
        headers: IfMatchHeaders,
        body: SubscriptionBody,
        response: { 200: Subscription, ...errors, ...stale },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await subscriptions.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook subscription and its delivery log',
        description: `Its pending deliveries go with it. Answers 204. ${IF_MATCH_NOTE}`,
        params: SubscriptionParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null(), ...errors, ...stale },
      },
    },
    async (request, reply) => {
      await subscriptions.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
  app.post(
    `${BASE}/:id/secret`,
    {
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary:
          'Rotate the signing secret: the answer shows the new one; the previous one keeps signing too for 24 hours',
        description:
          'Until PreviousSecretExpiresDate every delivery carries both signatures, so the ' +
          'receiver can switch to the new secret at its pace.',
        params: SubscriptionParams,
        response: { 200: Subscription, ...errors },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await subscriptions.rotateSecret(request.tenant.id, request.params.id),
      ),
  );
  app.get(
    `${BASE}/:id/deliveries`,
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log of a subscription, newest first',
        description:
          'Each delivery with its status (Pending, Succeeded, Failed; status filters), attempts ' +
          "and the last attempt's answer or error. Kept 30 days. One page at a time: skip " +
          '(default 0) and take (1 to 1000, default 20).',
        params: SubscriptionParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryList, ...errors },
      },
    },
    async (request) => deliveries.list(request.tenant.id, request.params.id, request.query),
  );
  app.get(
    `${BASE}/:id/deliveries/:deliveryId`,
    {
      schema: {
        tags,
        operationId: 'getWebhookDelivery',
        summary: 'One delivery of a subscription',
        description: '404 for an unknown delivery or one of another subscription.',
        params: DeliveryParams,
        response: { 200: Delivery, ...errors },
      },
    },
    async (request) =>
      deliveries.get(request.tenant.id, request.params.id, request.params.deliveryId),
  );
  app.post(
    `${BASE}/:id/deliveries/:deliveryId/replay`,
    {
      schema: {
        tags,
        operationId: 'replayWebhookDelivery',
        summary: 'Send the event of a delivery again (a new delivery, same webhook-id)',
        description:
          'Answers 202 with the new delivery (ReplayOf set); 409 EventNoLongerKept when the ' +
          'event is older than 30 days.',
        params: DeliveryParams,
        response: { 202: Delivery, ...errors, 409: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await deliveries.replay(request.tenant.id, request.params.id, request.params.deliveryId),
        ),
  );
  app.post(
    `${BASE}/:id/replay`,
    {
      schema: {
        tags,
        operationId: 'replayWebhookEvents',
        summary:
          'Send again every event of [From, To) that the subscription takes (events are kept 30 days)',
        description:
          'A new delivery of each matching event, delivered before or not (400 ' +
          'InvalidReplayRange unless From is before To). Answers 202 with how many.',
        params: SubscriptionParams,
        body: ReplayRangeBody,
        response: { 202: ReplayRangeResult, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send({
        Replayed: await deliveries.replayRange(
          request.tenant.id,
          request.params.id,
          new Date(request.body.From),
          new Date(request.body.To),
        ),
      }),
  );
};
