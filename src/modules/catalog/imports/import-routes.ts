// /private/catalog/imports: start an import (the body, or an uploaded asset), follow its progress,
// download its per-row results, cancel it.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { ApiError, badRequest } from '../../../http/errors.ts';
import { acceptEmptyJson } from '../../../http/json-body.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
import { PagingQuery } from '../../../http/paging.ts';
import { IdParams } from '../common-schemas.ts';
import { ImportJob, ImportList, ImportQuery, ImportResults } from './import-schemas.ts';
import { IMPORT_MIME_TYPES } from './import-formats.ts';
import { IMPORTS_PATH } from './import-jobs.ts';
import type { ImportService } from './import-service.ts';

export const importExportTag: OpenApiTag = {
  name: 'Catalog import and export',
  description:
    'Items in bulk: imports of JSONL or CSV files and exports to them, each a job to follow ' +
    'until it ends (docs/api.md, "Catalog import and export").',
};
const tags = [importExportTag.name];

export interface ImportRoutesOptions {
  imports: ImportService;
}

export const importRoutes: FastifyPluginAsync<ImportRoutesOptions> = async (
  instance,
  { imports },
) => {
  // The file is streamed to storage as it arrives: only the import formats are bodies here.
  await instance.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser(IMPORT_MIME_TYPES, (_request, payload, done) => done(null, payload));
    acceptEmptyJson(
      raw,
      `The import file must be sent as ${IMPORT_MIME_TYPES.join(', ')}, or named by assetId with no body.`,
    );
    raw.withTypeProvider<TypeBoxTypeProvider>().post(
      IMPORTS_PATH,
      {
        schema: {
          tags,
          operationId: 'startImport',
          summary: 'Start a catalog import (JSONL or CSV)',
          description:
            'The file is the request body (JSONL as application/x-ndjson or application/jsonl, ' +
            'or text/csv), or an uploaded asset named by assetId (no body). 202 with the job; ' +
            'follow it at Location. 415 MissingImportFile without a file, 400 ' +
            'AmbiguousImportSource with both, 413 past IMPORT_MAX_BYTES. Record layout, error ' +
            'policies and limits: docs/api.md, "Catalog import and export".',
          querystring: ImportQuery,
          rawBody: {
            description: 'The file: one JSON object a line (JSONL), or CSV with a header row.',
            required: false,
            mediaTypes: IMPORT_MIME_TYPES,
          },
          response: { 202: ImportJob, ...errorResponses(413, 415) },
        },
      },
      async (request, reply) => {
        const { assetId } = request.query;
        const body = request.body as Readable | undefined;
        if (assetId !== undefined && body !== undefined) {
          body.resume();
          throw badRequest(
            'AmbiguousImportSource',
            'Send the file as the body or name an asset, not both.',
            [{ Field: 'assetId', Message: 'give assetId or a body, not both' }],
          );
        }
        if (assetId === undefined && body === undefined)
          throw new ApiError(
            415,
            'MissingImportFile',
            `Send the file as the body (${IMPORT_MIME_TYPES.join(', ')}) or give assetId.`,
          );
        const job = await imports.create(
          request.tenant.id,
          request.tenant.baseUrl,
          request.query,
          assetId !== undefined
            ? { assetId }
            : { body: body!, mimeType: request.headers['content-type'] },
        );
        return reply.code(202).header('Location', `${IMPORTS_PATH}/${job.Id}`).send(job);
      },
    );
  });

  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    IMPORTS_PATH,
    {
      schema: {
        tags,
        operationId: 'listImports',
        summary: "The tenant's imports, newest first",
        description:
          'Every import of the tenant with its state and counts, newest first, one page at a ' +
          'time (skip default 0, take 1 to 1000, default 20); TotalCount counts them all.',
        querystring: PagingQuery,
        response: { 200: ImportList },
      },
    },
    async (request) => imports.list(request.tenant.id, request.query),
  );
  app.get(
    `${IMPORTS_PATH}/:id`,
    {
      schema: {
        tags,
        operationId: 'getImport',
        summary: "An import's state and progress",
        description:
          'Poll it until State is Succeeded, Failed or Cancelled; RowsRead, RowsWritten, ' +
          'RowsFailed and Percentage tell the progress, ResultsUrl where the per-row results are.',
        params: IdParams,
        response: { 200: ImportJob },
      },
    },
    async (request) => imports.get(request.tenant.id, request.params.id),
  );

  app.get(
    `${IMPORTS_PATH}/:id/results`,
    {
      schema: {
        tags,
        operationId: 'getImportResults',
        summary: "An import's per-row results (JSONL)",
        description:
          'One line per record settled so far, in file order: {"Line","SKU","Title","Status":"Written","ItemId"} or ' +
          '{"Line","SKU","Title","Status":"Failed","Errors":[{"Field","Message"}]}: SKU and Title as the record gives them ' +
          '(absent when it gives none), each Message a sentence naming the value at fault and what to do. While a RejectAll import validates, and ' +
          'when it failed validation, only the failed records.',
        params: IdParams,
        response: { 200: ImportResults },
      },
    },
    async (request, reply) => {
      const results = imports.results(request.tenant.id, request.params.id);
      // The first read answers 404 for an unknown import before the 200 starts.
      const first = await results.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* results;
      }
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .send(Readable.from(all(), { objectMode: false }));
    },
  );

  app.post(
    `${IMPORTS_PATH}/:id/cancel`,
    {
      schema: {
        tags,
        operationId: 'cancelImport',
        summary: 'Cancel an import',
        description:
          'Stops a Queued or Running import before its next chunk commits; the records written so far stay. 409 once it has ended.',
        params: IdParams,
        response: { 200: ImportJob, ...errorResponses(409) },
      },
    },
    async (request) => imports.cancel(request.tenant.id, request.params.id),
  );
};
