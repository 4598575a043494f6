// GET /management/history: the tenant's change history as one list, newest first, under filters
// (docs/api.md, "Change history"). Each resource's own history is at its path, declared by the
// module that owns it (src/http/history-routes.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HISTORY_TAG } from '../../http/history-routes.ts';
import { HistoryPage } from '../../http/history-schemas.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { HistoryQuery } from './history-schemas.ts';
import type { HistoryService } from './history-service.ts';

export const historyTag: OpenApiTag = {
  name: HISTORY_TAG,
  description:
    'Who changed what, when and from where: one entry per change of a resource (created, ' +
    'updated, deleted, restored), with what changed as field paths and old and new values, ' +
    "each resource's versions with their data, and the tenant's history as one list.",
};

export const historyRoutes: FastifyPluginAsync<{ history: HistoryService }> = async (
  instance,
  { history },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/management/history',
    {
      schema: {
        tags: [historyTag.name],
        operationId: 'listHistory',
        summary: "The tenant's change history, newest first",
        description:
          'Every entry of every resource, narrowed by ResourceType, ResourceId, ActorType, ' +
          'ActorId, Action and a time range (From and To, inclusive; 400 InvalidHistoryQuery ' +
          "when From is after To). Take 1..100 (default 20); the answer's Continuation, sent " +
          'back as Continuation with the same filters, gives the next page (null on the last; ' +
          '400 InvalidHistoryContinuation otherwise). Keyset pages: a deep page costs what the ' +
          'first does.',
        querystring: HistoryQuery,
        response: { 200: HistoryPage },
      },
    },
    async (request) => history.list(request.tenant.id, request.query),
  );
};
