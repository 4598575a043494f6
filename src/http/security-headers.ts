// Security headers on every answer (helmet), and CORS only for the origins an operator allows.
// helmet's headers are the same on every answer (no CSP nonces), so they are computed once at
// start and set by one synchronous hook. @fastify/helmet, used before, built helmet's middleware
// again on every request (its options parsed, its CSP serialized) in two hooks, one of them
// async: a few per cent of the CPU of a request (docs/design.md, "Security headers").
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

type HeaderConfig = Pick<Config, 'publicScheme'>;

/** The headers helmet sets with this service's options, as [name, value] pairs (lower case). */
export function securityHeaders(config: HeaderConfig): [string, string][] {
  const collected = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) => {
      collected.set(name.toLowerCase(), String(value));
    },
    removeHeader: (name: string) => {
      collected.delete(name.toLowerCase());
    },
  };
  helmet({
    // The API answers JSON, which no page should run or frame; the few HTML pages (API docs,
    // integration portal, console) set their own policy.
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
  })({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return [...collected];
}

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
  const headers = securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
  if (config.corsOrigins.length === 0) return;
  await app.register(cors, {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
