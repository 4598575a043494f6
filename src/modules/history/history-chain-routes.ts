// GET /management/history/export (the sealed change history as NDJSON) and GET|PUT
// /management/history/settings (the tenant's retention), in the permission area "history".
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag } from '../../http/etag.ts';
import { HISTORY_TAG } from '../../http/history-routes.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { exportLines } from './history-export.ts';
import type { HistoryRetention } from './history-retention.ts';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from './history-settings.ts';

const tags = [HISTORY_TAG];

const ExportQuery = Type.Object(
  {
    From: Type.Optional(
      Type.String({ format: 'date-time', description: 'Entries changed at or after this time.' }),
    ),
    To: Type.Optional(
      Type.String({ format: 'date-time', description: 'Entries changed before this time.' }),
    ),
    ResourceType: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only entries of this kind of resource (item, brand, category…).',
      }),
    ),
  },
  { additionalProperties: false },
);

const ExportResponse = {
  description: 'One sealed entry a line, oldest first by Sequence',
  content: {
    'application/x-ndjson': {
      schema: Type.Unsafe<Readable>({
        type: 'string',
        description:
          'Each line a history entry {Id, ResourceType, ResourceId, Action, Version, PreviousVersion, ' +
          'ChangedAt (to the microsecond), Actor, RequestId?, ClientAddress?, UserAgent?, IdempotencyKey?, ' +
          'Operation?, RestoredFrom?, Sequence, Hash, PreviousHash, Context, Data}: Actor, Context and ' +
          'Data as stored, which the Hash covers with PreviousHash (docs/api.md, "Tamper evidence").',
      }),
    },
  },
};

const RetentionBody = Type.Object(
  {
    RetentionDays: Type.Integer({
      minimum: RETENTION_DAYS_MIN,
      maximum: RETENTION_DAYS_MAX,
      description: 'Days an entry is kept after its change (HISTORY_RETENTION_DAYS until set).',
    }),
  },
  { additionalProperties: false, title: 'HistorySettings' },
);

export interface HistoryChainRoutesOptions {
  database: DatabaseHandle;
  retention: HistoryRetention;
}

export const historyChainRoutes: FastifyPluginAsync<HistoryChainRoutesOptions> = async (
  instance,
  { database, retention },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/management/history/export',
    {
      schema: {
        tags,
        operationId: 'exportHistory',
        summary: 'Export the change history (NDJSON)',
        description:
          'Every sealed entry changed in [From, To) (of ResourceType, when given), oldest first by ' +
          'Sequence, one JSON object a line, streamed. Entries are sealed a few seconds after ' +
          'their change (HISTORY_SEAL_INTERVAL_MS); `omni history verify --file` checks a file.',
        querystring: ExportQuery,
        response: { 200: ExportResponse },
      },
    },
    async (request, reply) => {
      const { From, To, ResourceType } = request.query;
      const lines = exportLines(database, request.tenant.id, {
        ...(From !== undefined ? { from: From } : {}),
        ...(To !== undefined ? { to: To } : {}),
        ...(ResourceType !== undefined ? { resourceType: ResourceType } : {}),
      });
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .send(Readable.from(lines, { objectMode: false }));
    },
  );

  app.get(
    '/management/history/settings',
    {
      schema: {
        tags,
        operationId: 'getHistorySettings',
        summary: 'Change history settings (retention)',
        description: 'How many days entries are kept, with the ETag of the settings.',
        response: { 200: withHeaders(RetentionBody, ETAG) },
      },
    },
    async (request, reply) => {
      const { RetentionDays, version } = await retention.setting(request.tenant.id);
      setEtag(reply, version);
      return { RetentionDays };
    },
  );

  app.put(
    '/management/history/settings',
    {
      schema: {
        tags,
        operationId: 'updateHistorySettings',
        summary: 'Set how many days the change history is kept',
        description:
          `RetentionDays ${RETENTION_DAYS_MIN}..${RETENTION_DAYS_MAX}; the daily job prunes older ` +
          `entries. Answers the settings with their new ETag. ${IF_MATCH_NOTE}`,
        headers: IfMatchHeaders,
        body: RetentionBody,
        response: { 200: withHeaders(RetentionBody, ETAG), 412: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      const { RetentionDays, version } = await retention.putSetting(
        request.tenant.id,
        request.body.RetentionDays,
        ifMatch(request),
      );
      setEtag(reply, version);
      return { RetentionDays };
    },
  );
};
