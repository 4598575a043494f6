import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
  errorBody,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../support/test-api.ts';

let api: TestApi;
let acme: TestTenant;
let beta: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  beta = await api.createTenant('beta');
});
afterAll(() => api.close());

const appIdsOf = (body: unknown) =>
  (body as { Results: { ApplicationId: string }[] }).Results.map((a) => a.ApplicationId);

describe('a tenant addressed by {tenant}.{API_HOST}', () => {
  it('serves a known tenant on its host', async () => {
    const response = await api.call({ url: '/management/oauth/apps', tenant: acme });
    expect(response.statusCode).toBe(200);
    expect(appIdsOf(response.json())).toEqual([acme.appId]);
  });

  it('ignores the port in the Host header', async () => {
    for (const host of ['acme.localhost:8080', 'acme.localhost:1234']) {
      const response = await api.call({
        url: '/management/oauth/apps',
        tenant: acme,
        headers: { host },
      });
      expect(response.statusCode, host).toBe(200);
      expect(appIdsOf(response.json())).toEqual([acme.appId]);
    }
  });

  it('reads the host name case-insensitively', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { host: 'ACME.LocalHost' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('shows each tenant only its own data and refuses another tenant’s token', async () => {
    const own = await api.call({ url: '/management/oauth/apps', tenant: beta });
    expect(appIdsOf(own.json())).toEqual([beta.appId]);

    const foreign = await api.call({
      url: '/management/oauth/apps',
      tenant: beta,
      token: acme.token,
    });
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).Code).toBe('InvalidToken');
  });
});

describe('an unknown tenant', () => {
  it('answers 404 TenantNotFound with the error body, before asking for a token', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: 'nosuch',
      token: null,
    });
    expect(response.statusCode).toBe(404);
    const body = errorBody(response);
    expect(body.Code).toBe('TenantNotFound');
    expect(body.FriendlyDescription).toContain('nosuch');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers 404 on an unknown tenant even with a valid token of another tenant', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: 'nosuch',
      token: acme.token,
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('TenantNotFound');
  });

  it('answers 404 for the token endpoint of an unknown tenant', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/oauth/token',
      tenant: 'nosuch',
      body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('TenantNotFound');
  });
});

describe('a host that names no tenant, without DEFAULT_TENANT', () => {
  it.each(['api.example.com', 'localhost', '127.0.0.1:8080', 'shop.acme.localhost'])(
    'answers 404 TenantNotFound on host %s',
    async (host) => {
      const response = await api.call({
        url: '/management/oauth/apps',
        tenant: acme,
        headers: { host },
      });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('TenantNotFound');
    },
  );
});

describe('operator routes', () => {
  it.each(['/health/live', '/health/ready', '/metrics', '/openapi.json'])(
    'answer %s on any host, with no tenant and no token',
    async (url) => {
      for (const host of ['api.example.com', 'nosuch.localhost', 'localhost', '10.0.0.7:8080']) {
        const response = await api.app.inject({ method: 'GET', url, headers: { host } });
        expect(response.statusCode, `${url} on ${host}`).toBe(200);
      }
    },
  );
});

describe('single-tenant mode (DEFAULT_TENANT)', () => {
  let single: TestApi;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    single = await startTestApi({ DEFAULT_TENANT: 'acme' });
    tenant = await single.createTenant('acme');
    other = await single.createTenant('other');
  });
  afterAll(() => single.close());

  it('serves a host that is not under API_HOST for the default tenant', async () => {
    for (const host of ['api.example.com', 'api.example.com:8443', 'localhost']) {
      const response = await single.call({
        url: '/management/oauth/apps',
        tenant,
        headers: { host },
      });
      expect(response.statusCode, host).toBe(200);
      expect(appIdsOf(response.json())).toEqual([tenant.appId]);
    }
  });

  it('issues tokens on such a host for the default tenant', async () => {
    const issued = await single.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        host: 'api.example.com',
        authorization: basicAuth(tenant.appId, tenant.secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(issued.statusCode).toBe(200);
    const token = issued.json<{ access_token: string }>().access_token;
    const response = await single.call({
      url: '/management/oauth/apps',
      token,
      headers: { host: 'api.example.com' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('still serves other tenants on their own hosts', async () => {
    const response = await single.call({ url: '/management/oauth/apps', tenant: other });
    expect(response.statusCode).toBe(200);
    expect(appIdsOf(response.json())).toEqual([other.appId]);
  });

  it('answers 404 for an unknown tenant under API_HOST rather than falling back', async () => {
    const response = await single.call({
      url: '/management/oauth/apps',
      tenant: 'nosuch',
      token: tenant.token,
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('TenantNotFound');
  });
});
