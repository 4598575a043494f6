// The gateway's rate limits by service tier.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { errorBody, type TestTenant } from '../../support/test-api.ts';
import { sleep, startOfSecond, viaGateway } from './integration-helpers.ts';
import { useEndpointApi, api, liveEndpoint } from './endpoint-context.ts';

useEndpointApi();

describe('rate limits by tier', () => {
  let developer: TestTenant;
  let standard: TestTenant;
  let premium: TestTenant;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    developer = await api.createTenant('dev-co');
    standard = await api.createTenant('std-co');
    premium = await api.createTenant('prem-co');
    keys.dev = await liveEndpoint(developer, 'dev-svc', 0);
    keys.std = await liveEndpoint(standard, 'std-svc', 1);
    keys.prem = await liveEndpoint(premium, 'prem-svc', 2);
  });

  it('defaults to 10, 100 and 1000 requests per second', () => {
    expect(loadConfig({}).gatewayRateLimits).toEqual([10, 100, 1000]);
  });

  it('answers 429 with Retry-After and RateLimit-* headers past the tier limit, per service', async () => {
    await startOfSecond();
    const burst = (service: string, key: string, token: string, count: number) =>
      Promise.all(Array.from({ length: count }, () => viaGateway(api, service, { key, token })));
    const [dev, std] = await Promise.all([
      burst('dev-svc', keys.dev!, developer.token, 12),
      burst('std-svc', keys.std!, standard.token, 14),
    ]);

    const devOk = dev.filter((r) => r.statusCode === 200);
    const devLimited = dev.filter((r) => r.statusCode === 429);
    expect(devOk.length + devLimited.length).toBe(12);
    // The first 3 of a window pass; at most two windows are involved.
    expect(devOk.length).toBeGreaterThanOrEqual(3);
    expect(devOk.length).toBeLessThanOrEqual(6);
    for (const response of dev) expect(response.headers['ratelimit-limit']).toBe('3');
    for (const response of devLimited) {
      expect(errorBody(response).Code).toBe('RateLimited');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.headers['ratelimit-remaining']).toBe('0');
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }

    // Standard has its own, larger limit, counted apart from the developer service.
    const stdOk = std.filter((r) => r.statusCode === 200);
    expect(stdOk.length).toBeGreaterThanOrEqual(5);
    expect(stdOk.length).toBeLessThanOrEqual(10);
    expect(std.some((r) => r.statusCode === 429)).toBe(true);
    for (const response of std) expect(response.headers['ratelimit-limit']).toBe('5');

    // Remaining counts down within the window.
    const remaining = devOk.map((r) => Number(r.headers['ratelimit-remaining']));
    expect(Math.min(...remaining)).toBe(0);
    expect(Math.max(...remaining)).toBeLessThanOrEqual(2);
  });

  it('lets requests through again after Retry-After', async () => {
    await startOfSecond();
    let limited: Awaited<ReturnType<typeof viaGateway>> | undefined;
    for (let i = 0; i < 5 && !limited; i++) {
      const response = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
      if (response.statusCode === 429) limited = response;
    }
    expect(limited).toBeDefined();
    await sleep(Number(limited!.headers['retry-after']) * 1000);
    const after = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
    expect(after.statusCode).toBe(200);
  });

  it('gives Premium its own limit', async () => {
    const response = await viaGateway(api, 'prem-svc', { key: keys.prem, token: premium.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-limit']).toBe('7');
  });

  it('does not count requests refused for their key', async () => {
    await startOfSecond();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        viaGateway(api, 'dev-svc', { key: 'wrong', token: developer.token }),
      ),
    );
    const response = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
    expect(response.statusCode).toBe(200);
  });
});
