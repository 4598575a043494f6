import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  useTestApi,
  useTenant,
  basicAuth,
  errorBody,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const beta = useTenant(api, 'beta');

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

// A fully qualified host name ends with a dot (`acme.localhost.`): the same name as without it,
// wherever the host is read (RFC 1034 §3.1; browsers and curl send it as typed).
describe('a host name with a trailing dot', () => {
  it.each(['acme.localhost.', 'ACME.LocalHost.', 'acme.localhost.:8080'])(
    'serves tenant acme on host %s',
    async (host) => {
      const response = await api.call({
        url: '/management/oauth/apps',
        tenant: acme,
        headers: { host },
      });
      expect(response.statusCode, `${host}: ${response.body}`).toBe(200);
      expect(appIdsOf(response.json())).toEqual([acme.appId]);
    },
  );

  it('logs the host name without its dot', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { host: 'acme.localhost.:8080' },
    });
    const id = response.headers['x-request-id'] as string;
    const line = api.logs.lines.find((l) => l.includes(id) && l.includes('request completed'))!;
    expect((JSON.parse(line) as { host: string }).host).toBe('acme.localhost');
  });

  it.each(['nosuch.localhost.', 'shop.acme.localhost.', 'acme.localhost..', '.localhost.'])(
    'answers 404 TenantNotFound on host %s',
    async (host) => {
      const response = await api.call({
        url: '/management/oauth/apps',
        tenant: acme,
        headers: { host },
      });
      expect(response.statusCode, host).toBe(404);
      expect(errorBody(response).Code).toBe('TenantNotFound');
    },
  );

  describe('in single-tenant mode (DEFAULT_TENANT)', () => {
    let single: TestApi;
    let tenant: TestTenant;
    let other: TestTenant;

    beforeAll(async () => {
      single = await startTestApi({ DEFAULT_TENANT: 'acme', JOB_POLLING_INTERVAL_SECONDS: '1' });
      tenant = await single.createTenant('acme');
      other = await single.createTenant('other');
    });
    afterAll(() => single.close());

    it.each(['other.localhost.', 'other.localhost.:8080', 'OTHER.localhost.'])(
      'serves tenant other, not the default tenant, on host %s',
      async (host) => {
        const response = await single.call({
          url: '/management/oauth/apps',
          tenant: other,
          headers: { host },
        });
        expect(response.statusCode, `${host}: ${response.body}`).toBe(200);
        expect(appIdsOf(response.json())).toEqual([other.appId]);
        // The default tenant's token is another tenant's there.
        const foreign = await single.call({
          url: '/management/oauth/apps',
          token: tenant.token,
          headers: { host },
        });
        expect(foreign.statusCode, host).toBe(401);
      },
    );

    it.each(['nosuch.localhost.', 'acme.localhost..', 'api.example.com..'])(
      'answers 404 on host %s rather than falling back to the default tenant',
      async (host) => {
        const response = await single.call({
          url: '/management/oauth/apps',
          token: tenant.token,
          headers: { host },
        });
        expect(response.statusCode, `${host}: ${response.body}`).toBe(404);
        expect(errorBody(response).Code).toBe('TenantNotFound');
      },
    );

    it('still serves a fully qualified host outside API_HOST for the default tenant', async () => {
      const response = await single.call({
        url: '/management/oauth/apps',
        tenant,
        headers: { host: 'api.example.com.' },
      });
      expect(response.statusCode).toBe(200);
      expect(appIdsOf(response.json())).toEqual([tenant.appId]);
    });

    it('routes the gateway and portal hosts with a trailing dot to the gateway and portal', async () => {
      const created = await single.call({
        method: 'POST',
        url: '/management/integration/endpoint',
        tenant: other,
        body: { ServiceName: 'dot-svc', ServiceTier: 0, AdminMail: 'ops@other.example' },
      });
      expect(created.statusCode, created.body).toBe(201);
      let key: string | undefined;
      for (let i = 0; i < 200 && key === undefined; i++) {
        const answer = await single.call({
          url: '/management/integration/endpoint/subscriptionkey',
          tenant: other,
        });
        if (answer.statusCode === 200)
          key = answer.json<{ SubscriptionKey: string }>().SubscriptionKey;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(key).toBeDefined();
      const gateway = 'dot-svc.integration.localhost.';

      // Without the subscription key the gateway refuses, whatever token comes with it: the
      // request is not served for the default tenant.
      for (const token of [tenant.token, other.token]) {
        const response = await single.call({
          url: '/management/oauth/apps',
          token,
          headers: { host: gateway },
        });
        expect(response.statusCode, response.body).toBe(401);
        expect(errorBody(response).Code).toBe('InvalidSubscriptionKey');
      }
      const through = await single.call({
        url: '/management/oauth/apps',
        token: other.token,
        headers: { host: `${gateway}:8080`, 'x-subscription-key': key! },
      });
      expect(through.statusCode, through.body).toBe(200);
      expect(appIdsOf(through.json())).toEqual([other.appId]);

      const portal = await single.app.inject({
        method: 'GET',
        url: '/status',
        headers: { host: 'dot-svc.portal.integration.localhost.' },
      });
      expect(portal.statusCode, portal.body).toBe(200);
      expect(portal.json()).toMatchObject({ ServiceName: 'dot-svc', Status: 2 });
    });
  });
});
