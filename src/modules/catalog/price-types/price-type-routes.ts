// /private/catalog/pricetype, /private/catalog/pricetypes
import type { FastifyPluginAsync } from 'fastify';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
import { IdParams } from '../common-schemas.ts';
import { PriceType, PriceTypeBody, PriceTypeList } from './price-type-schemas.ts';
import type { PriceTypeService } from './price-type-service.ts';

export const priceTypesTag: OpenApiTag = {
  name: 'Price types',
  description: 'The currencies or price lists an item has one price each in.',
};
const tags = [priceTypesTag.name];

export const priceTypeRoutes: FastifyPluginAsync<{ priceTypes: PriceTypeService }> = async (
  instance,
  { priceTypes },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'PriceType', many: 'PriceTypes' },
    path: '/private/catalog/pricetype',
    params: IdParams,
    resource: PriceType,
    etagOf: versionTag,
    service: priceTypes,
    create: {
      summary: 'Create a price type',
      description:
        'A symbol identifies its price type (imports and exports name price types by it): it ' +
        'is unique within the tenant, whatever the case (409 DuplicatePriceType). Descriptions ' +
        'may repeat.',
      body: PriceTypeBody,
      errors: [409],
    },
    get: { summary: 'Fetch a price type' },
    put: {
      summary: 'Update a price type',
      description:
        'The items with a price of the type change their ETag when its symbol changes. 409 ' +
        'DuplicatePriceType when another price type has the new symbol (whatever the case).',
      body: PriceTypeBody,
      errors: [409],
    },
    delete: {
      summary: 'Delete a price type (409 while prices use it)',
      description: '409 while an item has a price of the type.',
      errors: [409],
    },
    list: {
      path: '/private/catalog/pricetypes',
      summary: 'List price types',
      response: PriceTypeList,
    },
  });
};
