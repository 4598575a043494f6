// /private/catalog/brand, /private/catalog/brands
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
import { IdParams } from '../common-schemas.ts';
import { Brand, BrandBody, BrandList, BrandListQuery } from './brand-schemas.ts';
import type { BrandService } from './brand-service.ts';

export const brandsTag: OpenApiTag = {
  name: 'Brands',
  description: 'Brands items belong to, with names unique within the tenant.',
};
const tags = [brandsTag.name];

export const brandRoutes: FastifyPluginAsync<{ brands: BrandService }> = async (
  instance,
  { brands },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'Brand', many: 'Brands' },
    path: '/private/catalog/brand',
    params: IdParams,
    resource: Brand,
    etagOf: versionTag,
    service: brands,
    create: {
      summary: 'Create a brand',
      description: 'Names are unique within the tenant (409 DuplicateBrandName).',
      body: BrandBody,
      errors: [409],
    },
    get: { summary: 'Fetch a brand' },
    put: {
      summary: 'Update a brand',
      description: 'Names are unique within the tenant (409 DuplicateBrandName).',
      body: BrandBody,
      errors: [409],
    },
    delete: {
      summary: 'Delete a brand (409 while items use it)',
      description: '409 BrandInUse while items have the brand.',
      errors: [409],
    },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/private/catalog/brands',
    {
      schema: {
        tags,
        operationId: 'listBrands',
        summary:
          'List brands, or the distinct brands of the items in a category and its subcategories',
        description:
          'One page at a time: skip (default 0) and take (1 to 1000, default 20); TotalCount ' +
          'counts them all. With categoryId, only the brands of the items in that category and ' +
          'its subcategories: 400 UnknownCategory when the category does not exist, an empty ' +
          'page when it has no branded items.',
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
