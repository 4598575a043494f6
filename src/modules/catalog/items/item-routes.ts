// /private/catalog/item, /items, variants, prices and dynamic attributes.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import {
  IF_MATCH_NOTE,
  IfMatchHeaders,
  ifMatchVersion,
  setVersionEtag,
} from '../../../http/etag.ts';
import { sendJsonText } from '../../../http/json-text.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
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

export const itemsTag: OpenApiTag = {
  name: 'Items',
  description:
    "The catalog's items with their prices, dynamic attributes and tags; variant groups; the " +
    'simple and the full-text search. Items answer an ETag (their row version) and every write ' +
    'honours If-Match.',
};
const tags = [itemsTag.name];
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
      'Fields left out are cleared; Prices, DynamicAttributes, Tags and DefaultItemId change ' +
      'only when sent, and read-only fields (LikeCount, DateAdded…) are ignored, so a fetched ' +
      'item can be sent back. 409 DuplicateSku. Answers the item with its new ETag. ' +
      IF_MATCH_NOTE,
    headers: IfMatchHeaders,
    body: ItemBody,
    response: { 200: Item, ...errorResponses(409, 412) },
  };
  const patch = {
    tags,
    summary: 'Partially update an item',
    description:
      'Only the fields sent change; null clears a nullable field. 409 DuplicateSku. Answers the ' +
      `item with its new ETag. ${IF_MATCH_NOTE}`,
    headers: IfMatchHeaders,
    body: ItemPatch,
    response: { 200: Item, ...errorResponses(409, 412) },
  };

  app.post(
    '/private/catalog/item',
    {
      schema: {
        tags,
        operationId: 'createItem',
        summary: 'Create an item',
        description:
          'Title is required; SKU is unique within the tenant (409 DuplicateSku). Prices, ' +
          'DynamicAttributes and Tags may come along; DefaultItemId puts it in a variant group. ' +
          'Answers 201 with the item, its ETag and its Location.',
        body: ItemBody,
        response: { 201: Item, ...errorResponses(409) },
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
        operationId: 'getItem',
        summary: 'Fetch an item',
        description:
          'The item with its prices, dynamic attributes and tags, and its ETag (send it as ' +
          'If-Match to make a later change conditional). 404 for an unknown id.',
        params: IdParams,
        response: { 200: Item },
      },
    },
    async (request, reply) =>
      sendItem(reply, await items.get(request.tenant.id, request.params.id)),
  );
  // PUT (full) and PATCH (partial), each with the id in the path or in the body.
  for (const partial of [false, true]) {
    const schema = partial ? patch : put;
    const method = partial ? 'PATCH' : 'PUT';
    const verb = partial ? 'patchItem' : 'updateItem';
    const update = (request: FastifyRequest, body: ItemPatch, id: number) =>
      items.update(request.tenant.id, id, body, partial, ifMatchVersion(request));
    app.route({
      method,
      url: '/private/catalog/item/:id',
      schema: { ...schema, operationId: verb, params: IdParams },
      handler: async (request, reply) =>
        sendItem(reply, await update(request, request.body, request.params.id)),
    });
    app.route({
      method,
      url: '/private/catalog/item',
      schema: {
        ...schema,
        operationId: `${verb}ByBodyId`,
        summary: `${schema.summary}, Id in the body`,
        description: `The item is the one whose Id the body gives (400 IdRequired without it). ${schema.description}`,
      },
      handler: async (request, reply) =>
        sendItem(reply, await update(request, request.body, bodyId(request.body))),
    });
  }
  app.delete(
    '/private/catalog/item/:id',
    {
      schema: {
        tags,
        operationId: 'deleteItem',
        summary: 'Delete an item',
        description: `Variants of a deleted default item become stand-alone. Answers 204. ${IF_MATCH_NOTE}`,
        params: IdParams,
        headers: IfMatchHeaders,
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
        operationId: 'listItems',
        summary: 'List items',
        description:
          'Every item, active and passive, in Id order, one page at a time: skip (default 0) and ' +
          'take (1 to 1000, default 20); TotalCount counts them all. To filter, use ' +
          'GET /private/catalog/items/search or the search POST /private/catalog/items.',
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
        operationId: 'groupVariants',
        summary: 'Group stand-alone items as variants of this default item',
        description:
          'The body lists the item ids to make variants of item {id}, which becomes the default ' +
          'item. 404 when an item does not exist; 409 AlreadyGrouped when an item is in another ' +
          'group (use move), NotADefaultItem when {id} is itself a variant, IsDefaultItem when an ' +
          'item is the default of its own group. Answers the group.',
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
        operationId: 'moveVariants',
        summary: 'Move variants from their groups into this default item’s group',
        description:
          'The body lists variants of other groups; they join the group of item {id}. 409 ' +
          'NotAVariant for an item in no group. A group left without variants dissolves. ' +
          'Answers the group.',
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
        operationId: 'ungroupVariants',
        summary: 'Dissolve the variant group of a default item (409 unless it is one)',
        description:
          'Every item of the group, the default item too, becomes stand-alone. 409 ' +
          'NotADefaultItem unless {id} is a default item. Answers 204.',
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
        operationId: 'listItemPrices',
        summary: "An item's prices",
        description: "One price per price type, with the type's symbol. 404 for an unknown item.",
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
        operationId: 'replaceItemPrices',
        summary: "Replace an item's prices",
        description:
          'The body is the complete list: at most one price per PriceTypeId (or its synonym ' +
          'CurrencyId), which must exist (400); DiscountPrice at most NormalPrice. Answers the ' +
          'prices now stored.',
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
        operationId: 'listItemDynamicAttributes',
        summary: "An item's dynamic attributes",
        description: 'At most one value per attribute type. 404 for an unknown item.',
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
        operationId: 'replaceItemDynamicAttributes',
        summary: "Replace an item's dynamic attributes",
        description:
          'The body is the complete list, at most one value per type. A value given by text is ' +
          'created when the type does not have it yet; one given by TypeValueId must belong to ' +
          'its type (400). Answers the attributes now stored.',
        params: IdParams,
        body: Type.Array(DynamicAttributeInput, { maxItems: 1000 }),
        response: { 200: Type.Array(DynamicAttribute) },
      },
    },
    async (request) =>
      items.replaceDynamicAttributes(request.tenant.id, request.params.id, request.body),
  );
};
