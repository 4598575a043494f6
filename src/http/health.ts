// Liveness and readiness for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { DatabaseHandle } from '../db/connection/database.ts';
import { migrationsApplied } from '../db/schema/migrate.ts';
import type { OpenApiTag } from './openapi-operations.ts';

export const operatorTag: OpenApiTag = {
  name: 'Operator',
  description:
    'Probes for load balancers and orchestrators, on any host, with no token and no API version.',
};

const HealthBody = Type.Object({ Status: Type.String(), Database: Type.Optional(Type.String()) });

export function registerHealth(app: FastifyInstance, database: DatabaseHandle): void {
  app.get(
    '/health/live',
    {
      schema: {
        tags: [operatorTag.name],
        operationId: 'checkLiveness',
        summary: 'The process is up',
        description:
          'Liveness: 200 as long as the process answers at all; it asks nothing of the database.',
        response: { 200: HealthBody },
      },
    },
    async () => ({ Status: 'ok' }),
  );
  app.get(
    '/health/ready',
    {
      schema: {
        tags: [operatorTag.name],
        operationId: 'checkReadiness',
        summary: 'The database answers and every migration is applied',
        description:
          'Readiness: 200 with the database engine when the instance can serve; 503 with the ' +
          'reason (migrations pending, database unreachable) when it should get no traffic.',
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
