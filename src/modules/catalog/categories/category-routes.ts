// /private/catalog/category, /categories, /categorymetadata
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import { IdParams, MetadataPair } from '../common-schemas.ts';
import {
  Category,
  CategoryBody,
  CategoryMetadataBody,
  CategoryMetadataDeleteQuery,
  CategoryMetadataQuery,
  CategoryPatch,
  CategoryTree,
} from './category-schemas.ts';
import type { CategoryService } from './category-service.ts';

const tags = ['Categories'];

export const categoryRoutes: FastifyPluginAsync<{ categories: CategoryService }> = async (
  instance,
  { categories },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: '/private/catalog/category',
    params: IdParams,
    resource: Category,
    etagOf: versionTag,
    service: categories,
    create: { summary: 'Create a category', body: CategoryBody },
    get: { summary: 'Fetch a category with its metadata' },
    put: {
      summary: 'Update a category',
      description:
        '409 when the new parent is the category or one of its subcategories. Honours If-Match (412).',
      body: CategoryBody,
      errors: [409, 412],
    },
    patch: {
      summary: 'Partially update a category',
      description: 'Honours If-Match (412).',
      body: CategoryPatch,
      errors: [409, 412],
    },
    delete: {
      summary: 'Remove a category (409 while it has items or subcategories)',
      description: 'Honours If-Match (412).',
      errors: [409, 412],
    },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/private/catalog/categories',
    { schema: { tags, summary: 'The full category tree', response: { 200: CategoryTree } } },
    async (request) => categories.tree(request.tenant.id),
  );

  app.get(
    '/private/catalog/categorymetadata',
    {
      schema: {
        tags,
        summary: "A category's metadata",
        querystring: CategoryMetadataQuery,
        response: { 200: Type.Array(MetadataPair) },
      },
    },
    async (request) => categories.metadata(request.tenant.id, request.query.categoryId),
  );
  app.post(
    '/private/catalog/categorymetadata',
    {
      schema: {
        tags,
        summary: 'Add a metadata key to a category (409 when the key exists)',
        body: CategoryMetadataBody,
        response: { 201: CategoryMetadataBody, ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header(
          'Location',
          `/private/catalog/categorymetadata?categoryId=${request.body.CategoryId}`,
        )
        .send(await categories.addMetadata(request.tenant.id, request.body)),
  );
  app.put(
    '/private/catalog/categorymetadata',
    {
      schema: {
        tags,
        summary: "Change a metadata key's value (404 when the key does not exist)",
        body: CategoryMetadataBody,
        response: { 200: CategoryMetadataBody },
      },
    },
    async (request) => categories.updateMetadata(request.tenant.id, request.body),
  );
  app.delete(
    '/private/catalog/categorymetadata',
    {
      schema: {
        tags,
        summary: 'Remove one metadata key, or all of them without metadataKey',
        querystring: CategoryMetadataDeleteQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await categories.deleteMetadata(
        request.tenant.id,
        request.query.categoryId,
        request.query.metadataKey,
      );
      return reply.code(204).send(null);
    },
  );
};
