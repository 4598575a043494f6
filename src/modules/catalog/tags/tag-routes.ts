// /private/catalog/tag, /tags, /itemtagmapping, /itemtagmappings
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { PagingQuery } from '../../../http/paging.ts';
import { ifMatchVersion, withVersionEtag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import {
  ItemTagMapping,
  ItemTagMappingKey,
  ItemTagMappingList,
  ItemTagMappingQuery,
  Tag,
  TagBody,
  TagList,
} from './tag-schemas.ts';
import type { TagService } from './tag-service.ts';

const tags = ['Tags'];

export const tagRoutes: FastifyPluginAsync<{ tagService: TagService }> = async (
  instance,
  { tagService },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/tag',
    {
      schema: {
        tags,
        summary: 'Create a tag',
        body: TagBody,
        response: { 201: Tag, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(
        reply,
        await tagService.create(request.tenant.id, request.body),
      );
      return reply.code(201).header('Location', `/private/catalog/tag/${created.Id}`).send(created);
    },
  );
  app.get(
    '/private/catalog/tag/:id',
    { schema: { tags, summary: 'Fetch a tag', params: IdParams, response: { 200: Tag } } },
    async (request, reply) =>
      withVersionEtag(reply, await tagService.get(request.tenant.id, request.params.id)),
  );
  app.put(
    '/private/catalog/tag/:id',
    {
      schema: {
        tags,
        summary: 'Update a tag',
        description: 'Honours If-Match (412 when the tag changed).',
        params: IdParams,
        body: TagBody,
        response: { 200: Tag, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await tagService.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    '/private/catalog/tag/:id',
    {
      schema: {
        tags,
        summary: 'Delete a tag (409 while items carry it)',
        description: 'Honours If-Match (412 when the tag changed).',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await tagService.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/private/catalog/tags',
    {
      schema: { tags, summary: 'List tags', querystring: PagingQuery, response: { 200: TagList } },
    },
    async (request) => tagService.list(request.tenant.id, request.query),
  );

  app.post(
    '/private/catalog/itemtagmapping',
    {
      schema: {
        tags,
        summary: 'Map a tag to an item',
        description: '404 for an unknown item or tag; 409 when the mapping exists.',
        body: ItemTagMapping,
        response: { 201: ItemTagMapping, ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('Location', `/private/catalog/itemtagmappings?itemId=${request.body.ItemId}`)
        .send(await tagService.map(request.tenant.id, request.body)),
  );
  app.get(
    '/private/catalog/itemtagmappings',
    {
      schema: {
        tags,
        summary: 'Mappings of one item (itemId) or one tag (tagId), a page at a time',
        querystring: ItemTagMappingQuery,
        response: { 200: ItemTagMappingList },
      },
    },
    async (request) => {
      const { itemId, tagId, skip, take } = request.query;
      return tagService.mappings(request.tenant.id, { itemId, tagId }, { skip, take });
    },
  );
  app.delete(
    '/private/catalog/itemtagmapping',
    {
      schema: {
        tags,
        summary: 'Remove a tag from an item',
        querystring: ItemTagMappingKey,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await tagService.unmap(request.tenant.id, request.query.itemId, request.query.tagId);
      return reply.code(204).send(null);
    },
  );
};
