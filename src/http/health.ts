// Liveness and readiness for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { DatabaseHandle } from '../db/database.ts';
import { migrationsApplied } from '../db/migrate.ts';

const HealthBody = Type.Object({ Status: Type.String(), Database: Type.Optional(Type.String()) });

export function registerHealth(app: FastifyInstance, database: DatabaseHandle): void {
  app.get(
    '/health/live',
    { schema: { tags: ['Operator'], summary: 'The process is up', response: { 200: HealthBody } } },
    async () => ({ Status: 'ok' }),
  );
  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['Operator'],
        summary: 'The database answers and every migration is applied',
        response: { 200: HealthBody, 503: HealthBody },
      },
    },
    async (request, reply) => {
      try {
        if (await migrationsApplied(database))
          return { Status: 'ready', Database: database.engine };
        return reply.code(503).send({ Status: 'migrations pending', Database: database.engine });
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ Status: 'database unreachable', Database: database.engine });
      }
    },
  );
}
