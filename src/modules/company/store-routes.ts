// /management/company/store, /management/company/stores
import type { FastifyPluginAsync } from 'fastify';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { IdParams, Store, StoreBody, StoreList } from './company-schemas.ts';
import type { StoreService } from './store-service.ts';

export const storesTag: OpenApiTag = {
  name: 'Company: stores',
  description: "The retailer's stores, each with its location (devices find the nearest one).",
};
const tags = [storesTag.name];
const BASE = '/management/company/store';

export const storeRoutes: FastifyPluginAsync<{ stores: StoreService }> = async (
  instance,
  { stores },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'Store', many: 'Stores' },
    path: BASE,
    params: IdParams,
    resource: Store,
    etagOf: (updatedAt: Date) => updatedAt,
    service: stores,
    create: {
      summary: 'Create a store',
      description: 'Name and Location (Longitude −180..180, Latitude −90..90) are required.',
      body: StoreBody,
    },
    get: { summary: 'Fetch a store' },
    put: {
      summary: 'Update a store',
      description: 'Every field is replaced; those left out are cleared.',
      body: StoreBody,
    },
    delete: {
      summary: 'Delete a store (409 while physical devices are in it)',
      description: '409 StoreHasPhysicalDevices while a physical device is in the store.',
      errors: [409],
    },
    list: { path: '/management/company/stores', summary: 'List stores', response: StoreList },
  });
};
