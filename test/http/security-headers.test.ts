// Security headers on every answer, and CORS: off unless CORS_ORIGINS allows an origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/test-api.ts';

const SHOP = 'https://shop.example.com';

describe('security headers', () => {
  let api: TestApi;
  let acme: TestTenant;
  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
  });
  afterAll(() => api?.close());

  it('are sent with JSON answers, errors included', async () => {
    for (const response of [
      await api.call({ url: '/management/oauth/apps', tenant: acme }),
      await api.call({ url: '/management/oauth/apps', tenant: acme, token: null }),
      await api.call({ url: '/no/such/route', tenant: acme }),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Over plain http HSTS means nothing; it is sent only behind https (below).
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('include HSTS when clients reach the server over https', async () => {
    const secure = await startTestApi({ PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443' });
    try {
      const response = await secure.call({ url: '/health/live' });
      expect(response.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await secure.close();
    }
  });

  it('send no CORS headers by default, to a simple request or a preflight', async () => {
    const simple = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { origin: SHOP },
    });
    expect(simple.statusCode).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await api.app.inject({
      method: 'OPTIONS',
      url: '/management/oauth/apps',
      headers: { host: acme.host, origin: SHOP, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('CORS with CORS_ORIGINS', () => {
  let api: TestApi;
  let acme: TestTenant;
  beforeAll(async () => {
    api = await startTestApi({ CORS_ORIGINS: `${SHOP}, https://admin.example.com` });
    acme = await api.createTenant('acme');
  });
  afterAll(() => api?.close());

  it('allows a listed origin and lets it read the ETag and the request id', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { origin: SHOP },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(SHOP);
    expect(response.headers.vary).toMatch(/Origin/);
    const exposed = String(response.headers['access-control-expose-headers']);
    expect(exposed).toContain('ETag');
    expect(exposed).toContain('X-Request-Id');
  });

  it('answers a preflight of a listed origin without a token', async () => {
    const preflight = await api.app.inject({
      method: 'OPTIONS',
      url: '/private/catalog/item/1',
      headers: {
        host: acme.host,
        origin: SHOP,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, if-match',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain(
      'if-match',
    );
  });

  it('does not allow an origin that is not listed', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { origin: 'https://evil.example.net' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
