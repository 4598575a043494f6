// Security headers on every answer (helmet), and CORS only for the origins an operator allows.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** Headers a browser client may read from a cross-origin answer. */
const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Content-Range',
  'Idempotent-Replayed',
];

export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'corsOrigins' | 'publicScheme'>,
): Promise<void> {
  await app.register(helmet, {
    // The API answers JSON, which no page should run or frame; the few HTML pages (API docs,
    // integration portal) set their own policy.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    // HSTS only means something over https; over plain http browsers ignore it anyway.
    strictTransportSecurity:
      config.publicScheme === 'https' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    frameguard: { action: 'deny' },
    // Answers are read with a bearer token, never with ambient cookies, so the default
    // same-origin resource policy only matters for the public asset bytes, which say otherwise.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  if (config.corsOrigins.length === 0) return;
  await app.register(cors, {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
