// /private/catalog/item, /items, variants, prices and dynamic attributes.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { ifMatchVersion, setVersionEtag } from '../../../http/etag.ts';
import { ETAG, withHeaders } from '../../../http/response-headers.ts';
import { sendJsonText } from '../../../http/json-text.ts';
import { PagingQuery } from '../../../http/paging.ts';
import { DynamicAttribute, DynamicAttributeInput } from '../attributes/attribute-schemas.ts';
import { catalogErrors } from '../catalog-errors.ts';
import { IdParams } from '../common-schemas.ts';
import {
  Item,
  ItemBody,
  ItemIdList,
  ItemList,
  ItemPatch,
  Price,
  PriceInputs,
  VariantGroup,
} from './item-schemas.ts';
import type { ItemJson, ItemService } from './item-service.ts';
import type { VariantService } from './variant-service.ts';

const tags = ['Items'];
function sendItem(reply: FastifyReply, { json, version }: ItemJson): FastifyReply {
  setVersionEtag(reply, version);
  return sendJsonText(reply, json);
}

function bodyId(body: { Id?: number }): number {
  if (body.Id === undefined) throw catalogErrors.itemIdRequired();
  return body.Id;
}

export interface ItemRoutesOptions {
  items: ItemService;
  variants: VariantService;
}

export const itemRoutes: FastifyPluginAsync<ItemRoutesOptions> = async (
  instance,
  { items, variants },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const put = {
    tags,
    summary: 'Update an item (full)',
    description:
      'Fields left out are cleared; Prices, DynamicAttributes, Tags and DefaultItemId change only when sent. Honours If-Match.',
    body: ItemBody,
    response: { 200: withHeaders(Item, ETAG), ...errorResponses(409, 412) },
  };
  const patch = {
    tags,
    summary: 'Partially update an item',
    description: 'Only the fields sent change; null clears a nullable field. Honours If-Match.',
    body: ItemPatch,
    response: { 200: withHeaders(Item, ETAG), ...errorResponses(409, 412) },
  };

  app.post(
    '/private/catalog/item',
    {
      schema: {
        tags,
        summary: 'Create an item',
        body: ItemBody,
        response: { 201: withHeaders(Item, ETAG), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = await items.create(request.tenant.id, request.body);
      reply.code(201).header('Location', `/private/catalog/item/${created.id}`);
      return sendItem(reply, created);
    },
  );
  app.get(
    '/private/catalog/item/:id',
    {
      schema: {
        tags,
        summary: 'Fetch an item',
        params: IdParams,
        response: { 200: withHeaders(Item, ETAG) },
      },
    },
    async (request, reply) =>
      sendItem(reply, await items.get(request.tenant.id, request.params.id)),
  );
  // PUT (full) and PATCH (partial), each with the id in the path or in the body.
  for (const partial of [false, true]) {
    const schema = partial ? patch : put;
    const method = partial ? 'PATCH' : 'PUT';
    const update = (request: FastifyRequest, body: ItemPatch, id: number) =>
      items.update(request.tenant.id, id, body, partial, ifMatchVersion(request));
    app.route({
      method,
      url: '/private/catalog/item/:id',
      schema: { ...schema, params: IdParams },
      handler: async (request, reply) =>
        sendItem(reply, await update(request, request.body, request.params.id)),
    });
    app.route({
      method,
      url: '/private/catalog/item',
      schema: { ...schema, summary: `${schema.summary}, Id in the body` },
      handler: async (request, reply) =>
        sendItem(reply, await update(request, request.body, bodyId(request.body))),
    });
  }
  app.delete(
    '/private/catalog/item/:id',
    {
      schema: {
        tags,
        summary: 'Delete an item',
        description: 'Variants of a deleted default item become stand-alone. Honours If-Match.',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(412) },
      },
    },
    async (request, reply) => {
      await items.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/private/catalog/items',
    {
      schema: {
        tags,
        summary: 'List items',
        querystring: PagingQuery,
        response: { 200: ItemList },
      },
    },
    async (request, reply) =>
      sendJsonText(reply, await items.list(request.tenant.id, request.query)),
  );
  app.post(
    '/private/catalog/items/:id/group',
    {
      schema: {
        tags,
        summary: 'Group stand-alone items as variants of this default item',
        description:
          '404 when an item does not exist; 409 when an item is in another group (use move) or is this default item a variant.',
        params: IdParams,
        body: ItemIdList,
        response: { 200: VariantGroup, ...errorResponses(409) },
      },
    },
    async (request) => variants.group(request.tenant.id, request.params.id, request.body),
  );
  app.post(
    '/private/catalog/items/:id/move',
    {
      schema: {
        tags,
        summary: 'Move variants from their groups into this default item’s group',
        params: IdParams,
        body: ItemIdList,
        response: { 200: VariantGroup, ...errorResponses(409) },
      },
    },
    async (request) => variants.move(request.tenant.id, request.params.id, request.body),
  );
  app.post(
    '/private/catalog/items/:id/ungroup',
    {
      schema: {
        tags,
        summary: 'Dissolve the variant group of a default item (409 unless it is one)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      await variants.ungroup(request.tenant.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/private/catalog/items/:id/prices',
    {
      schema: {
        tags,
        summary: "An item's prices",
        params: IdParams,
        response: { 200: Type.Array(Price) },
      },
    },
    async (request) => items.prices(request.tenant.id, request.params.id),
  );
  app.put(
    '/private/catalog/items/:id/prices',
    {
      schema: {
        tags,
        summary: "Replace an item's prices",
        params: IdParams,
        body: PriceInputs,
        response: { 200: Type.Array(Price) },
      },
    },
    async (request) => items.replacePrices(request.tenant.id, request.params.id, request.body),
  );
  app.get(
    '/private/catalog/items/:id/dynamicattributes',
    {
      schema: {
        tags,
        summary: "An item's dynamic attributes",
        params: IdParams,
        response: { 200: Type.Array(DynamicAttribute) },
      },
    },
    async (request) => items.dynamicAttributes(request.tenant.id, request.params.id),
  );
  app.put(
    '/private/catalog/items/:id/dynamicattributes',
    {
      schema: {
        tags,
        summary: "Replace an item's dynamic attributes",
        description: 'A value given by text is created when the type does not have it yet.',
        params: IdParams,
        body: Type.Array(DynamicAttributeInput, { maxItems: 1000 }),
        response: { 200: Type.Array(DynamicAttribute) },
      },
    },
    async (request) =>
      items.replaceDynamicAttributes(request.tenant.id, request.params.id, request.body),
  );
};
