// /private/catalog/tag, /tags, /itemtagmapping, /itemtagmappings
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
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
  registerCrudRoutes(instance, {
    tags,
    path: '/private/catalog/tag',
    params: IdParams,
    resource: Tag,
    etagOf: versionTag,
    service: tagService,
    create: { summary: 'Create a tag', body: TagBody, errors: [409] },
    get: { summary: 'Fetch a tag' },
    put: {
      summary: 'Update a tag',
      description: 'Honours If-Match (412 when the tag changed).',
      body: TagBody,
      errors: [409, 412],
    },
    delete: {
      summary: 'Delete a tag (409 while items carry it)',
      description: 'Honours If-Match (412 when the tag changed).',
      errors: [409, 412],
    },
    list: { path: '/private/catalog/tags', summary: 'List tags', response: TagList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
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
