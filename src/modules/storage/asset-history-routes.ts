// The change history of an asset at its own path (docs/api.md, "Change history").
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import type { AssetService } from './asset-service.ts';
import { AssetIdParams } from './asset-schemas.ts';
import { assetNotFound } from './storage-errors.ts';

export const assetHistoryRoutes: FastifyPluginAsync<{
  assets: AssetService;
  database: RawSql;
}> = async (app, { assets, database }) => {
  registerHistoryRoutes(app, {
    url: '/management/storage/asset/:id',
    resource: 'asset',
    name: 'Asset',
    params: AssetIdParams,
    resourceId: (params) => String(params.id),
    // The asset's URL is not needed to know it is there.
    exists: (tenantId, params) => existsBy(() => assets.get(tenantId, params.id as number, '')),
    notFound: (params) => assetNotFound(params.id as number),
    database,
  });
};
