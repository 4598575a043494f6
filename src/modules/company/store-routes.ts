// /management/company/store, /management/company/stores
import type { FastifyPluginAsync } from 'fastify';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
import { IdParams, Store, StoreBody, StoreList } from './company-schemas.ts';
import type { StoreService } from './store-service.ts';

const tags = ['Company: stores'];
const BASE = '/management/company/store';

export const storeRoutes: FastifyPluginAsync<{ stores: StoreService }> = async (
  instance,
  { stores },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: BASE,
    params: IdParams,
    resource: Store,
    etagOf: (updatedAt: Date) => updatedAt,
    service: stores,
    create: { summary: 'Create a store', body: StoreBody },
    get: { summary: 'Fetch a store' },
    put: { summary: 'Update a store', body: StoreBody },
    delete: { summary: 'Delete a store (409 while physical devices are in it)', errors: [409] },
    list: { path: '/management/company/stores', summary: 'List stores', response: StoreList },
  });
};
