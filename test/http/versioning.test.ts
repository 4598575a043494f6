import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant, errorBody } from '../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

/** GET the app list with exactly this Accept header (none when undefined). */
function listApps(accept: string | undefined) {
  return api.app.inject({
    method: 'GET',
    url: '/management/oauth/apps',
    headers: {
      host: acme.host,
      authorization: `Bearer ${acme.token}`,
      ...(accept === undefined ? {} : { accept }),
    },
  });
}

describe('Accept header selecting API version 4.0', () => {
  it.each([
    ['no Accept header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['the dash form', 'application/vnd.xomni.api-v4-0'],
    ['the underscore form followed by */*', 'application/vnd.xomni.api-v4_0, */*'],
    ['another vendor token', 'application/vnd.acme.api-v4-0'],
    ['an unsupported version followed by */*', 'application/vnd.xomni.api-v3-1, */*'],
  ])('serves the request with %s', async (_case, accept) => {
    const response = await listApps(accept);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-api-version']).toBe('4.0');
    expect(response.json()).toMatchObject({ TotalCount: 1 });
  });
});

describe('Accept header asking for an unsupported version', () => {
  it.each([
    'application/vnd.xomni.api-v3_1',
    'application/vnd.xomni.api-v5-0',
    'application/vnd.xomni.api-v3-1, application/vnd.xomni.api-v5-0',
  ])('answers %s with 406 UnsupportedApiVersion naming 4.0', async (accept) => {
    const response = await listApps(accept);
    expect(response.statusCode).toBe(406);
    const body = errorBody(response);
    expect(body.Code).toBe('UnsupportedApiVersion');
    expect(body.FriendlyDescription).toContain('4.0');
    expect(response.headers['x-api-version']).toBe('4.0');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers 406 on the token endpoint too', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        host: acme.host,
        accept: 'application/vnd.xomni.api-v5-0',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(response.statusCode).toBe(406);
    expect(errorBody(response).Code).toBe('UnsupportedApiVersion');
  });
});

describe('Accept negotiation (RFC 9110 §12.5.1)', () => {
  it.each([
    ['*/* listed after an unsupported version', 'application/vnd.xomni.api-v3_1, */*'],
    [
      'application/json after an unsupported version',
      'application/vnd.xomni.api-v3_1, application/json',
    ],
    ['application/* after an unsupported version', 'application/vnd.xomni.api-v3_1, application/*'],
    ['an acceptable type after one this server cannot make', 'text/html, application/json;q=0.9'],
    ['a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['jQuery', 'application/json, text/javascript, */*; q=0.01'],
    ['the lowest weight above 0', '*/*;q=0.001'],
    ['4.0 weighted below */*', 'application/vnd.xomni.api-v4-0;q=0.5, */*'],
    ['a weight with spaces and in upper case', 'application/json ; Q=0.5'],
    ['an unreadable weight on another range', 'application/json;q=2, */*'],
  ])('serves the latest version to %s', async (_case, accept) => {
    const response = await listApps(accept);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-api-version']).toBe('4.0');
    expect(response.json()).toMatchObject({ TotalCount: 1 });
  });

  it.each([
    ['*/* with q=0', '*/*;q=0'],
    ['application/json with q=0', 'application/json;q=0'],
    ['4.0 refused by name, although */* follows', 'application/vnd.xomni.api-v4-0;q=0, */*'],
    ['JSON refused by name, although */* follows', 'application/json;q=0.000, */*'],
    ['an unsupported version with */* refused', 'application/vnd.xomni.api-v3_1, */*;q=0'],
    ['only a type this server cannot make', 'text/html'],
    ['only a range of such types', 'text/*'],
    ['only a range with an unreadable weight', 'application/json;q=1.5'],
  ])('answers 406 when nothing listed is acceptable: %s', async (_case, accept) => {
    const response = await listApps(accept);
    expect(response.statusCode, response.body).toBe(406);
    expect(errorBody(response).Code).toBe('UnsupportedApiVersion');
  });

  it('names the unsupported versions asked for', async () => {
    const response = await listApps(
      'application/vnd.xomni.api-v3_1, application/vnd.acme.api-v5-0',
    );
    expect(errorBody(response).FriendlyDescription).toContain('asks for 3.1, 5.0');
  });

  it('answers Vary: Accept on API routes, successes and 406 alike, not on operator routes', async () => {
    for (const response of [
      await listApps('application/json'),
      await listApps(undefined),
      await listApps('text/html'),
      await api.call({ url: '/no/such/route', tenant: acme }),
    ])
      expect(response.headers.vary).toBe('Accept');
    const health = await api.app.inject({ method: 'GET', url: '/health/live' });
    expect(health.headers.vary).toBeUndefined();
  });
});

describe('Vary with CORS', () => {
  const cors = useTestApi({ CORS_ORIGINS: 'https://shop.example' });
  const shop = useTenant(cors, 'shop');

  it('keeps Origin and adds Accept', async () => {
    const response = await cors.call({
      url: '/management/oauth/apps',
      tenant: shop,
      headers: { origin: 'https://shop.example' },
    });
    expect(response.statusCode).toBe(200);
    const vary = String(response.headers.vary)
      .split(',')
      .map((name) => name.trim().toLowerCase());
    expect(vary).toEqual(expect.arrayContaining(['origin', 'accept']));
  });
});

describe('operator routes and versioning', () => {
  it.each(['/health/live', '/health/ready', '/metrics', '/openapi.json'])(
    'ignore the Accept version on %s',
    async (url) => {
      for (const accept of ['application/vnd.xomni.api-v5-0', 'application/vnd.xomni.api-v3_1']) {
        const response = await api.app.inject({ method: 'GET', url, headers: { accept } });
        expect(response.statusCode, `${url} with ${accept}`).toBe(200);
        expect(response.headers['x-api-version']).toBe('4.0');
      }
    },
  );
});

describe('X-Api-Version response header', () => {
  it('is 4.0 on successes, errors and operator routes alike', async () => {
    const responses = [
      await listApps('application/vnd.xomni.api-v4-0'),
      await listApps('application/vnd.xomni.api-v5-0'),
      await api.call({ url: '/management/oauth/apps', tenant: acme, token: null }),
      await api.call({ url: '/management/oauth/apps', tenant: 'nosuch' }),
      await api.call({ url: '/no/such/route', tenant: acme }),
      await api.app.inject({ method: 'GET', url: '/health/live' }),
      await api.app.inject({ method: 'GET', url: '/metrics' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 406, 401, 404, 404, 200, 200]);
    for (const response of responses) expect(response.headers['x-api-version']).toBe('4.0');
  });
});
