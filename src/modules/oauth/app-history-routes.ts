// The change history of an OAuth app at its own path (docs/api.md, "Change history"). The
// entries never show a secret (the app's data has none; a rotation is an update).
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import type { AppService } from './app-service.ts';
import { AppIdParams } from './app-schemas.ts';
import { oauthErrors } from './oauth-errors.ts';

// Entries name an app by its id as PostgreSQL spells a uuid: in lower case.
const idOf = (params: Record<string, unknown>) => String(params.applicationId).toLowerCase();

export const appHistoryRoutes: FastifyPluginAsync<{ apps: AppService; database: RawSql }> = async (
  app,
  { apps, database },
) => {
  registerHistoryRoutes(app, {
    url: '/management/oauth/apps/:applicationId',
    resource: 'app',
    name: 'App',
    params: AppIdParams,
    resourceId: idOf,
    exists: (tenantId, params) => existsBy(() => apps.get(tenantId, idOf(params))),
    notFound: (params) => oauthErrors.appNotFound(idOf(params)),
    database,
  });
};
