// The gateway's rate limits by service tier.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { errorBody, type TestTenant } from '../../support/test-api.ts';
import { viaGateway } from './integration-fixtures.ts';
import { useEndpointApi, api, liveEndpoint } from './endpoint-fixtures.ts';

useEndpointApi();

/** The last one-second window a test counted in (each test counts in windows of its own). */
let lastWindow = 0;

/**
 * Stops the wall clock (Date only: timers and I/O run on) at the start of a one-second window that
 * no earlier test used, so that every request of the test counts in that one window however
 * slowly the machine sends them.
 */
function freezeInNewWindow(): void {
  vi.useRealTimers();
  lastWindow = Math.max(lastWindow + 1, Math.ceil(Date.now() / 1000));
  vi.useFakeTimers({ toFake: ['Date'], now: lastWindow * 1000 });
}

/** Moves the stopped clock on by `seconds`. */
function advanceClock(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
  lastWindow = Math.floor(Date.now() / 1000);
}

afterEach(() => {
  vi.useRealTimers();
});

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
    freezeInNewWindow();
    const burst = (service: string, key: string, token: string, count: number) =>
      Promise.all(Array.from({ length: count }, () => viaGateway(api, service, { key, token })));
    const [dev, std] = await Promise.all([
      burst('dev-svc', keys.dev!, developer.token, 12),
      burst('std-svc', keys.std!, standard.token, 14),
    ]);

    const devOk = dev.filter((r) => r.statusCode === 200);
    const devLimited = dev.filter((r) => r.statusCode === 429);
    expect(devOk.length + devLimited.length).toBe(12);
    // The first 3 of the window pass, the other 9 are refused.
    expect(devOk).toHaveLength(3);
    for (const response of dev) expect(response.headers['ratelimit-limit']).toBe('3');
    for (const response of devLimited) {
      expect(errorBody(response).Code).toBe('RateLimited');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.headers['ratelimit-remaining']).toBe('0');
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }

    // Standard has its own, larger limit, counted apart from the developer service.
    const stdOk = std.filter((r) => r.statusCode === 200);
    expect(stdOk).toHaveLength(5);
    expect(std.filter((r) => r.statusCode === 429)).toHaveLength(9);
    for (const response of std) expect(response.headers['ratelimit-limit']).toBe('5');

    // Remaining counts down within the window.
    const remaining = devOk.map((r) => Number(r.headers['ratelimit-remaining']));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it('lets requests through again after Retry-After', async () => {
    freezeInNewWindow();
    let limited: Awaited<ReturnType<typeof viaGateway>> | undefined;
    for (let i = 0; i < 5 && !limited; i++) {
      const response = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
      if (response.statusCode === 429) limited = response;
    }
    expect(limited).toBeDefined();
    advanceClock(Number(limited!.headers['retry-after']));
    const after = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
    expect(after.statusCode).toBe(200);
  });

  it('gives Premium its own limit', async () => {
    const response = await viaGateway(api, 'prem-svc', { key: keys.prem, token: premium.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-limit']).toBe('7');
  });

  it('does not count requests refused for their key', async () => {
    freezeInNewWindow();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        viaGateway(api, 'dev-svc', { key: 'wrong', token: developer.token }),
      ),
    );
    const response = await viaGateway(api, 'dev-svc', { key: keys.dev, token: developer.token });
    expect(response.statusCode).toBe(200);
  });
});
