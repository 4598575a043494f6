// The change history of each kind of catalog resource at its own path (docs/api.md, "Change
// history"): items, brands, categories, tags, dynamic attribute types and price types.
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import { catalogErrors } from './catalog-errors.ts';
import type { CatalogServices } from './catalog-module.ts';
import { IdParams } from './common-schemas.ts';

const BASE = '/private/catalog';

export const catalogHistoryRoutes: FastifyPluginAsync<{
  services: CatalogServices;
  database: RawSql;
}> = async (app, { services, database }) => {
  const { items, brands, categories, tags, attributes, priceTypes } = services;
  const idOf = (params: Record<string, unknown>) => params.id as number;
  const kinds = [
    {
      path: 'item',
      resource: 'item',
      name: 'Item',
      exists: (tenantId: number, id: number) => items.exists(tenantId, id),
      notFound: catalogErrors.itemNotFound,
    },
    {
      path: 'brand',
      resource: 'brand',
      name: 'Brand',
      exists: (tenantId: number, id: number) => brands.exists(tenantId, id),
      notFound: catalogErrors.brandNotFound,
    },
    {
      path: 'category',
      resource: 'category',
      name: 'Category',
      exists: (tenantId: number, id: number) => categories.exists(tenantId, id),
      notFound: catalogErrors.categoryNotFound,
    },
    {
      path: 'tag',
      resource: 'tag',
      name: 'Tag',
      exists: (tenantId: number, id: number) => existsBy(() => tags.get(tenantId, id)),
      notFound: catalogErrors.tagNotFound,
    },
    {
      path: 'dynamicattributetypes',
      resource: 'attribute_type',
      name: 'AttributeType',
      exists: (tenantId: number, id: number) => existsBy(() => attributes.get(tenantId, id)),
      notFound: catalogErrors.attributeTypeNotFound,
    },
    {
      path: 'pricetype',
      resource: 'price_type',
      name: 'PriceType',
      exists: (tenantId: number, id: number) => existsBy(() => priceTypes.get(tenantId, id)),
      notFound: catalogErrors.priceTypeNotFound,
    },
  ];
  for (const kind of kinds)
    registerHistoryRoutes(app, {
      url: `${BASE}/${kind.path}/:id`,
      resource: kind.resource,
      name: kind.name,
      params: IdParams,
      resourceId: (params) => String(idOf(params)),
      exists: (tenantId, params) => kind.exists(tenantId, idOf(params)),
      notFound: (params) => kind.notFound(idOf(params)),
      database,
    });
};
