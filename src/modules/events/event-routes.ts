// GET /management/events: the tenant's event feed, for integrators catching up.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EventFeed } from './event-feed.ts';
import { webhooksTag } from './webhook-routes.ts';
import { EventPage, EventsQuery } from './events-schemas.ts';

export const eventRoutes: FastifyPluginAsync<{ feed: EventFeed }> = async (instance, { feed }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/management/events',
    {
      schema: {
        tags: [webhooksTag.name],
        operationId: 'listEvents',
        description:
          'Oldest first, after the event Id given as after (from the oldest kept without it); ' +
          'take 1 to 1000 (default 100). Keep the last Id read and ask again with it: nothing ' +
          'is skipped or repeated. HasMore says whether to ask again at once. Events are kept ' +
          '30 days.',
        summary:
          'Events after an event Id, oldest first (keyset paged; kept 30 days). Poll again with the last Id read.',
        querystring: EventsQuery,
        response: { 200: EventPage },
      },
    },
    async (request) => feed.list(request.tenant.id, request.query.after, request.query.take),
  );
};
