// The change history of the tenant's integration endpoint, a singleton: its path has no id, and
// the history is that of every endpoint the tenant had, a replaced one's included (docs/api.md,
// "Change history").
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { registerHistoryRoutes } from '../../http/history-routes.ts';
import type { EndpointService } from './endpoint-service.ts';
import { integrationErrors } from './integration-errors.ts';

export const endpointHistoryRoutes: FastifyPluginAsync<{
  endpoints: EndpointService;
  database: RawSql;
}> = async (app, { endpoints, database }) => {
  registerHistoryRoutes(app, {
    url: '/management/integration/endpoint',
    resource: 'integration_endpoint',
    name: 'Endpoint',
    exists: async (tenantId) => (await endpoints.row(tenantId)) !== undefined,
    notFound: () => integrationErrors.endpointNotFound(),
    database,
  });
};
