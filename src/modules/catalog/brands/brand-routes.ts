// /private/catalog/brand, /private/catalog/brands
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { ifMatchVersion, withVersionEtag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import { Brand, BrandBody, BrandList, BrandListQuery } from './brand-schemas.ts';
import type { BrandService } from './brand-service.ts';

const tags = ['Brands'];

export const brandRoutes: FastifyPluginAsync<{ brands: BrandService }> = async (
  instance,
  { brands },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/private/catalog/brand',
    {
      schema: {
        tags,
        summary: 'Create a brand',
        body: BrandBody,
        response: { 201: Brand, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(reply, await brands.create(request.tenant.id, request.body));
      return reply
        .code(201)
        .header('Location', `/private/catalog/brand/${created.Id}`)
        .send(created);
    },
  );
  app.get(
    '/private/catalog/brand/:id',
    { schema: { tags, summary: 'Fetch a brand', params: IdParams, response: { 200: Brand } } },
    async (request, reply) =>
      withVersionEtag(reply, await brands.get(request.tenant.id, request.params.id)),
  );
  app.put(
    '/private/catalog/brand/:id',
    {
      schema: {
        tags,
        summary: 'Update a brand',
        description: 'Honours If-Match (412 when the brand changed).',
        params: IdParams,
        body: BrandBody,
        response: { 200: Brand, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await brands.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    '/private/catalog/brand/:id',
    {
      schema: {
        tags,
        summary: 'Delete a brand (409 while items use it)',
        description: 'Honours If-Match (412 when the brand changed).',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await brands.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/private/catalog/brands',
    {
      schema: {
        tags,
        summary:
          'List brands, or the distinct brands of the items in a category and its subcategories',
        description: 'With categoryId: 400 when the category does not exist.',
        querystring: BrandListQuery,
        response: { 200: BrandList },
      },
    },
    async (request) => {
      const { categoryId, skip, take } = request.query;
      return categoryId === undefined
        ? brands.list(request.tenant.id, { skip, take })
        : brands.listByCategory(request.tenant.id, categoryId, { skip, take });
    },
  );
};
