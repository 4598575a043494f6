// /private/catalog/pricetype, /private/catalog/pricetypes
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { PagingQuery } from '../../../http/paging.ts';
import { ifMatchVersion, withVersionEtag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import { PriceType, PriceTypeBody, PriceTypeList } from './price-type-schemas.ts';
import type { PriceTypeService } from './price-type-service.ts';

const tags = ['Price types'];

export const priceTypeRoutes: FastifyPluginAsync<{ priceTypes: PriceTypeService }> = async (
  instance,
  { priceTypes },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/pricetype',
    {
      schema: {
        tags,
        summary: 'Create a price type',
        body: PriceTypeBody,
        response: { 201: PriceType },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(
        reply,
        await priceTypes.create(request.tenant.id, request.body),
      );
      return reply
        .code(201)
        .header('Location', `/private/catalog/pricetype/${created.Id}`)
        .send(created);
    },
  );
  app.get(
    '/private/catalog/pricetype/:id',
    {
      schema: {
        tags,
        summary: 'Fetch a price type',
        params: IdParams,
        response: { 200: PriceType },
      },
    },
    async (request, reply) =>
      withVersionEtag(reply, await priceTypes.get(request.tenant.id, request.params.id)),
  );
  app.put(
    '/private/catalog/pricetype/:id',
    {
      schema: {
        tags,
        summary: 'Update a price type',
        description: 'Honours If-Match (412 when the price type changed).',
        params: IdParams,
        body: PriceTypeBody,
        response: { 200: PriceType, ...errorResponses(412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await priceTypes.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    '/private/catalog/pricetype/:id',
    {
      schema: {
        tags,
        summary: 'Delete a price type (409 while prices use it)',
        description: 'Honours If-Match (412 when the price type changed).',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await priceTypes.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/private/catalog/pricetypes',
    {
      schema: {
        tags,
        summary: 'List price types',
        querystring: PagingQuery,
        response: { 200: PriceTypeList },
      },
    },
    async (request) => priceTypes.list(request.tenant.id, request.query),
  );
};
