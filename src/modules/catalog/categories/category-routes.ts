// /private/catalog/category, /categories, /categorymetadata
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { ifMatchVersion, withVersionEtag } from '../../../http/etag.ts';
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
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/category',
    {
      schema: {
        tags,
        summary: 'Create a category',
        body: CategoryBody,
        response: { 201: Category },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(
        reply,
        await categories.create(request.tenant.id, request.body),
      );
      return reply
        .code(201)
        .header('Location', `/private/catalog/category/${created.Id}`)
        .send(created);
    },
  );
  app.get(
    '/private/catalog/category/:id',
    {
      schema: {
        tags,
        summary: 'Fetch a category with its metadata',
        params: IdParams,
        response: { 200: Category },
      },
    },
    async (request, reply) =>
      withVersionEtag(reply, await categories.get(request.tenant.id, request.params.id)),
  );
  app.put(
    '/private/catalog/category/:id',
    {
      schema: {
        tags,
        summary: 'Update a category',
        description:
          '409 when the new parent is the category or one of its subcategories. Honours If-Match (412).',
        params: IdParams,
        body: CategoryBody,
        response: { 200: Category, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await categories.update(
          request.tenant.id,
          request.params.id,
          request.body,
          false,
          ifMatchVersion(request),
        ),
      ),
  );
  app.patch(
    '/private/catalog/category/:id',
    {
      schema: {
        tags,
        summary: 'Partially update a category',
        description: 'Honours If-Match (412).',
        params: IdParams,
        body: CategoryPatch,
        response: { 200: Category, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await categories.update(
          request.tenant.id,
          request.params.id,
          request.body,
          true,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    '/private/catalog/category/:id',
    {
      schema: {
        tags,
        summary: 'Remove a category (409 while it has items or subcategories)',
        description: 'Honours If-Match (412).',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await categories.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
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
