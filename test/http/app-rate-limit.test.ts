// Per-app rate limits (APP_RATE_LIMITS by application type, per minute): 429 in the error body
// with Retry-After and RateLimit-* headers; each app has its own budget; with REDIS_URL two
// server instances share one budget.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAppRateLimit } from '../../src/http/app-rate-limit.ts';
import type { Principal } from '../../src/http/authentication.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';
import { REDIS_URL, redisAnswers } from '../support/redis.ts';
import { errorBody, startTestApi, type TestApi, type TestTenant } from '../support/test-api.ts';

async function createApp(api: TestApi, tenant: TestTenant, type: number) {
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: `App ${randomUUID().slice(0, 6)}`, ApplicationTypeId: type },
  });
  expect(response.statusCode).toBe(201);
  const app = response.json<{ ApplicationId: string; ApplicationSecret: string }>();
  return api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret);
}

describe('per-app rate limits', () => {
  let api: TestApi;
  let acme: TestTenant;
  beforeAll(async () => {
    api = await startTestApi({ APP_RATE_LIMITS: '2=3' });
    acme = await api.createTenant('acme');
  });
  afterAll(() => api?.close());

  const list = (token: string) => api.call({ url: '/private/catalog/brands', tenant: acme, token });

  it('answers 429 past the budget, in the error body, with Retry-After and RateLimit headers', async () => {
    const token = await createApp(api, acme, 2);
    for (let i = 0; i < 3; i++) {
      const response = await list(token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('3');
      expect(response.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const refused = await list(token);
    expect(refused.statusCode).toBe(429);
    expect(errorBody(refused).Code).toBe('RateLimitExceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('gives each app its own budget', async () => {
    const first = await createApp(api, acme, 2);
    const second = await createApp(api, acme, 2);
    for (let i = 0; i < 3; i++) expect((await list(first)).statusCode).toBe(200);
    expect((await list(first)).statusCode).toBe(429);
    expect((await list(second)).statusCode).toBe(200);
  });

  it('does not limit a type that APP_RATE_LIMITS does not list', async () => {
    // The bootstrap app is a Management app (type 3).
    for (let i = 0; i < 6; i++) {
      const response = await list(acme.token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe.skipIf(!(await redisAnswers()))('per-app rate limits shared through Redis', () => {
  const instances: FastifyInstance[] = [];
  afterAll(async () => {
    for (const instance of instances) await instance.close();
  });

  /** A server instance with the rate limit as the API registers it, for one fixed app. */
  async function instance(appId: string): Promise<FastifyInstance> {
    const app = Fastify();
    app.decorateRequest('principal', null as unknown as Principal);
    app.addHook('onRequest', (request, _reply, done) => {
      request.principal = {
        tenantId: 1,
        appId,
        appTypeId: 2,
        scopes: new Set(['private']),
        jti: 'j',
        expiresAt: Date.now() + 60_000,
      };
      done();
    });
    registerErrorHandling(app);
    await registerAppRateLimit(app, { appRateLimits: { 2: 4 }, redisUrl: REDIS_URL });
    app.get('/brands', async () => []);
    await app.ready();
    instances.push(app);
    return app;
  }

  it('counts the requests of two instances against one budget', async () => {
    const appId = randomUUID();
    const [first, second] = [await instance(appId), await instance(appId)];
    const statuses = [];
    for (const app of [first, second, first, second, first, second])
      statuses.push((await app.inject({ url: '/brands' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
