// /private/catalog/pricetype, /private/catalog/pricetypes
import type { FastifyPluginAsync } from 'fastify';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import { PriceType, PriceTypeBody, PriceTypeList } from './price-type-schemas.ts';
import type { PriceTypeService } from './price-type-service.ts';

const tags = ['Price types'];

export const priceTypeRoutes: FastifyPluginAsync<{ priceTypes: PriceTypeService }> = async (
  instance,
  { priceTypes },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: '/private/catalog/pricetype',
    params: IdParams,
    resource: PriceType,
    etagOf: versionTag,
    service: priceTypes,
    create: { summary: 'Create a price type', body: PriceTypeBody },
    get: { summary: 'Fetch a price type' },
    put: {
      summary: 'Update a price type',
      description: 'Honours If-Match (412 when the price type changed).',
      body: PriceTypeBody,
      errors: [412],
    },
    delete: {
      summary: 'Delete a price type (409 while prices use it)',
      description: 'Honours If-Match (412 when the price type changed).',
      errors: [409, 412],
    },
    list: {
      path: '/private/catalog/pricetypes',
      summary: 'List price types',
      response: PriceTypeList,
    },
  });
};
