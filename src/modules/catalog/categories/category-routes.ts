// /private/catalog/category, /categories, /categorymetadata
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
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
import { sendJsonText } from '../../../http/json-text.ts';
import { MAX_CATEGORY_DEPTH } from './category-depth.ts';

export const categoriesTag: OpenApiTag = {
  name: 'Categories',
  description:
    "The category tree (a category has at most one parent) and each category's metadata keys.",
};
const tags = [categoriesTag.name];

export const categoryRoutes: FastifyPluginAsync<{ categories: CategoryService }> = async (
  instance,
  { categories },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'Category', many: 'Categories' },
    path: '/private/catalog/category',
    params: IdParams,
    resource: Category,
    etagOf: versionTag,
    service: categories,
    create: {
      summary: 'Create a category',
      description:
        'A ParentCategoryId that does not exist is 400. Names are unique among siblings, ' +
        'whatever the case (409 DuplicateCategoryName); the same name under another parent is ' +
        `fine. A tree is at most ${MAX_CATEGORY_DEPTH} levels deep (a root is level 1): a parent at ` +
        'that level is 400 CategoryTooDeep.',
      body: CategoryBody,
      errors: [409],
    },
    get: { summary: 'Fetch a category with its metadata' },
    put: {
      summary: 'Update a category',
      description:
        'A parent that does not exist is 400; 409 CategoryCycle when the new parent is the ' +
        'category or one of its subcategories; 409 DuplicateCategoryName when a category of ' +
        'the new name (whatever the case) is already under the new parent; 400 CategoryTooDeep ' +
        `when the category or its subcategories would be below level ${MAX_CATEGORY_DEPTH} there.`,
      body: CategoryBody,
      errors: [409],
    },
    patch: {
      summary: 'Partially update a category',
      description:
        'A parent that does not exist is 400; 409 CategoryCycle when the new parent is the ' +
        'category or one of its subcategories; 409 DuplicateCategoryName when a category of ' +
        'the new name (whatever the case) is already under the new parent; 400 CategoryTooDeep ' +
        `when the category or its subcategories would be below level ${MAX_CATEGORY_DEPTH} there.`,
      body: CategoryPatch,
      errors: [409],
    },
    delete: {
      summary: 'Remove a category (409 while it has items or subcategories)',
      description: '409 CategoryHasChildren or CategoryHasItems.',
      errors: [409],
    },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/private/catalog/categories',
    {
      schema: {
        tags,
        operationId: 'getCategoryTree',
        summary: 'The full category tree',
        description:
          'Every category of the tenant at once, nested under its parent, ordered by Id (not paged).',
        response: { 200: CategoryTree },
      },
    },
    async (request, reply) => sendJsonText(reply, await categories.treeJson(request.tenant.id)),
  );

  app.get(
    '/private/catalog/categorymetadata',
    {
      schema: {
        tags,
        operationId: 'listCategoryMetadata',
        summary: "A category's metadata",
        description: 'Its key and value pairs. 404 for an unknown category.',
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
        operationId: 'addCategoryMetadata',
        summary: 'Add a metadata key to a category (409 when the key exists)',
        description:
          '409 DuplicateMetadataKey when the category has the key; an unknown CategoryId is 400. ' +
          "Answers 201 with the pair. The category's ETag changes.",
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
        operationId: 'updateCategoryMetadata',
        summary: "Change a metadata key's value (404 when the key does not exist)",
        description: "Answers the pair; an unknown CategoryId is 400. The category's ETag changes.",
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
        operationId: 'deleteCategoryMetadata',
        summary: 'Remove one metadata key, or all of them without metadataKey',
        description: "Answers 204. The category's ETag changes.",
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
