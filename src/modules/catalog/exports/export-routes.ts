// /private/catalog/exports: start an export, follow it to its file.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PagingQuery } from '../../../http/paging.ts';
import { IdParams } from '../common-schemas.ts';
import { importExportTag } from '../imports/import-routes.ts';
import { ExportBody, ExportJob, ExportList } from './export-schemas.ts';
import { EXPORTS_PATH, type ExportService } from './export-service.ts';

const tags = [importExportTag.name];

export interface ExportRoutesOptions {
  exports: ExportService;
}

export const exportRoutes: FastifyPluginAsync<ExportRoutesOptions> = async (
  instance,
  { exports },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    EXPORTS_PATH,
    {
      schema: {
        tags,
        operationId: 'startExport',
        summary: 'Start a catalog export (JSONL or CSV)',
        description:
          'Writes the matching items (the whole catalog without filters) to a file in the import layout, stored as an asset. 202 with the job; follow it at Location until Succeeded, then read AssetUrl.',
        body: ExportBody,
        response: { 202: ExportJob },
      },
    },
    async (request, reply) => {
      const job = await exports.create(request.tenant.id, request.tenant.baseUrl, request.body);
      return reply.code(202).header('Location', `${EXPORTS_PATH}/${job.Id}`).send(job);
    },
  );
  app.get(
    EXPORTS_PATH,
    {
      schema: {
        tags,
        operationId: 'listExports',
        summary: "The tenant's exports, newest first",
        description:
          'Every export of the tenant, newest first, one page at a time (skip default 0, take ' +
          '1 to 1000, default 20); TotalCount counts them all.',
        querystring: PagingQuery,
        response: { 200: ExportList },
      },
    },
    async (request) => exports.list(request.tenant.id, request.query),
  );
  app.get(
    `${EXPORTS_PATH}/:id`,
    {
      schema: {
        tags,
        operationId: 'getExport',
        summary: "An export's state and, once done, its file",
        description:
          'Poll it until State is Succeeded (AssetUrl is then the file, to download with no ' +
          'token) or Failed (Error says why). 404 for an unknown export.',
        params: IdParams,
        response: { 200: ExportJob },
      },
    },
    async (request) => exports.get(request.tenant.id, request.params.id),
  );
};
