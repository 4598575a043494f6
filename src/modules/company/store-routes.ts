// /management/company/store, /management/company/stores
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import { PagingQuery } from '../../http/paging.ts';
import { IdParams, Store, StoreBody, StoreList } from './company-schemas.ts';
import type { StoreService } from './store-service.ts';

const tags = ['Company: stores'];
const BASE = '/management/company/store';

export const storeRoutes: FastifyPluginAsync<{ stores: StoreService }> = async (
  instance,
  { stores },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    BASE,
    { schema: { tags, summary: 'Create a store', body: StoreBody, response: { 201: Store } } },
    async (request, reply) => {
      const { value, version } = await stores.create(request.tenant.id, request.body);
      setEtag(reply, version);
      return reply.code(201).header('Location', `${BASE}/${value.Id}`).send(value);
    },
  );
  app.get(
    `${BASE}/:id`,
    { schema: { tags, summary: 'Fetch a store', params: IdParams, response: { 200: Store } } },
    async (request, reply) => {
      return withEtag(reply, await stores.get(request.tenant.id, request.params.id));
    },
  );
  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a store',
        params: IdParams,
        body: StoreBody,
        response: { 200: Store },
      },
    },
    async (request, reply) => {
      return withEtag(
        reply,
        await stores.update(request.tenant.id, request.params.id, request.body, ifMatch(request)),
      );
    },
  );
  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a store (409 while physical devices are in it)',
        params: IdParams,
        response: { 204: Type.Null(), 409: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      await stores.delete(request.tenant.id, request.params.id, ifMatch(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/management/company/stores',
    {
      schema: {
        tags,
        summary: 'List stores',
        querystring: PagingQuery,
        response: { 200: StoreList },
      },
    },
    async (request) => stores.list(request.tenant.id, request.query),
  );
};
