// /private/catalog/tag, /tags, /itemtagmapping, /itemtagmappings
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
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

export const tagsTag: OpenApiTag = {
  name: 'Tags',
  description: 'Free labels on items, and which item carries which tag.',
};
const tags = [tagsTag.name];

export const tagRoutes: FastifyPluginAsync<{ tagService: TagService }> = async (
  instance,
  { tagService },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'Tag', many: 'Tags' },
    path: '/private/catalog/tag',
    params: IdParams,
    resource: Tag,
    etagOf: versionTag,
    service: tagService,
    create: {
      summary: 'Create a tag',
      description: 'Names are unique within the tenant (409 DuplicateTagName).',
      body: TagBody,
      errors: [409],
    },
    get: { summary: 'Fetch a tag' },
    put: {
      summary: 'Update a tag',
      description:
        'Names are unique within the tenant (409 DuplicateTagName); the items carrying the tag ' +
        'change their ETag.',
      body: TagBody,
      errors: [409],
    },
    delete: {
      summary: 'Delete a tag (409 while items carry it)',
      description: '409 TagInUse while the tag is mapped to an item.',
      errors: [409],
    },
    list: { path: '/private/catalog/tags', summary: 'List tags', response: TagList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/itemtagmapping',
    {
      schema: {
        tags,
        operationId: 'createItemTagMapping',
        summary: 'Map a tag to an item',
        description:
          'Answers 201 with the mapping. 404 for an unknown item or tag; 409 when the mapping ' +
          "exists. The item's ETag changes.",
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
        operationId: 'listItemTagMappings',
        summary: 'Mappings of one item (itemId) or one tag (tagId), a page at a time',
        description:
          'Exactly one of itemId and tagId (400 otherwise). One page at a time: skip (default 0) ' +
          'and take (1 to 1000, default 20); TotalCount counts them all.',
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
        operationId: 'deleteItemTagMapping',
        summary: 'Remove a tag from an item',
        description:
          "Answers 204; 404 when the item does not carry the tag. The item's ETag changes.",
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
