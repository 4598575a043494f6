// /private/catalog/brand, /private/catalog/brands
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import { Brand, BrandBody, BrandList, BrandListQuery } from './brand-schemas.ts';
import type { BrandService } from './brand-service.ts';

const tags = ['Brands'];

export const brandRoutes: FastifyPluginAsync<{ brands: BrandService }> = async (
  instance,
  { brands },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: '/private/catalog/brand',
    params: IdParams,
    resource: Brand,
    etagOf: versionTag,
    service: brands,
    create: { summary: 'Create a brand', body: BrandBody, errors: [409] },
    get: { summary: 'Fetch a brand' },
    put: {
      summary: 'Update a brand',
      description: 'Honours If-Match (412 when the brand changed).',
      body: BrandBody,
      errors: [409, 412],
    },
    delete: {
      summary: 'Delete a brand (409 while items use it)',
      description: 'Honours If-Match (412 when the brand changed).',
      errors: [409, 412],
    },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
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
