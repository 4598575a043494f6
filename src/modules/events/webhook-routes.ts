// /management/webhooks: subscriptions, their secrets, their delivery log and replays.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifMatchVersion, withVersionEtag } from '../../http/etag.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
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

const tags = ['Webhooks'];
const BASE = '/management/webhooks';
const errors = { 404: { $ref: 'ErrorBody#' } };

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
        summary: 'Create a webhook subscription (its Secret is shown in this answer only)',
        body: SubscriptionBody,
        response: { 201: withHeaders(Subscription, ETAG) },
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
        summary: 'List webhook subscriptions',
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
        summary: 'Fetch a webhook subscription',
        params: SubscriptionParams,
        response: { 200: withHeaders(Subscription, ETAG), ...errors },
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
        summary: 'Update a webhook subscription (Enabled: false disables it, true enables it)',
        params: SubscriptionParams,
        body: SubscriptionBody,
        response: { 200: withHeaders(Subscription, ETAG), ...errors },
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
        summary: 'Delete a webhook subscription and its delivery log',
        params: SubscriptionParams,
        response: { 204: Type.Null(), ...errors },
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
        summary:
          'Rotate the signing secret: the answer shows the new one; the previous one keeps signing too for 24 hours',
        params: SubscriptionParams,
        response: { 200: withHeaders(Subscription, ETAG), ...errors },
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
        summary: 'The delivery log of a subscription, newest first',
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
        summary: 'One delivery of a subscription',
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
        summary: 'Send the event of a delivery again (a new delivery, same webhook-id)',
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
        summary:
          'Send again every event of [From, To) that the subscription takes (events are kept 30 days)',
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
