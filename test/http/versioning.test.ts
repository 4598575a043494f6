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
    'application/vnd.xomni.api-v3-1, */*',
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
