// Per-app request budgets (APP_RATE_LIMITS, by application type, per minute), counted in Redis
// when REDIS_URL is set so that every instance shares them, else in this process.
import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { ApiError } from './errors.ts';

const WINDOW_MS = 60_000;
const READY_TIMEOUT_MS = 3_000;

async function waitUntilReady(redis: Redis, app: FastifyInstance): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = await Promise.race([
    once(redis, 'ready').then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref()),
  ]);
  if (!ready)
    app.log.warn('rate-limit Redis not reachable yet: requests pass uncounted until it is');
}

export async function registerAppRateLimit(
  app: FastifyInstance,
  config: Pick<Config, 'appRateLimits' | 'redisUrl'>,
): Promise<void> {
  const limits = config.appRateLimits;
  if (Object.keys(limits).length === 0) return;
  // Loaded only when used: a server without Redis keeps the client's memory.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        // A Redis outage must not hold requests: the command fails fast and the request passes.
        maxRetriesPerRequest: 1,
        connectTimeout: 2_000,
        enableOfflineQueue: false,
        lazyConnect: false,
      })
    : undefined;
  redis?.on('error', (error) => app.log.warn({ err: error }, 'rate-limit Redis error'));
  // Commands sent before the connection is up would fail (no offline queue) and go uncounted.
  if (redis) await waitUntilReady(redis, app);
  app.addHook('onClose', async () => {
    await redis?.quit().catch(() => {});
  });
  await app.register(rateLimit, {
    global: true,
    // After authentication (an onRequest hook), so the budget is the calling app's; before
    // validation, so that refused requests count too.
    hook: 'preValidation',
    timeWindow: WINDOW_MS,
    // Requests without a token (operator routes, the token endpoint, asset bytes) and apps of a
    // type with no limit are not counted (the key is made before the allow-list is asked).
    keyGenerator: (request) =>
      request.principal ? `${request.principal.tenantId}:${request.principal.appId}` : '',
    max: (request) =>
      (request.principal && limits[request.principal.appTypeId]) || Number.MAX_SAFE_INTEGER,
    allowList: (request) => !request.principal || limits[request.principal.appTypeId] === undefined,
    ...(redis ? { redis, nameSpace: 'omni-app-rate:' } : {}),
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'RateLimitExceeded',
        `This app may send ${context.max} requests per minute; try again in ${Math.ceil(context.ttl / 1000)} s.`,
        { headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) } },
      ),
  });
}
