// /management/integration/endpoint in one process: every status code, the creation states, the
// gateway (key, token, rate limits), the portal, the subscription key, deletion and failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { errorBody, startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  ControlledProvisioner,
  createEndpoint,
  ENDPOINT,
  KEY_PATH,
  sleep,
  startOfSecond,
  subscriptionKeyOf,
  tenantIdOf,
  viaGateway,
  viaPortal,
  waitFor,
  waitForStatus,
} from './integration-helpers.ts';

const provisioner = new ControlledProvisioner();
let api: TestApi;
let acme: TestTenant;
let globex: TestTenant;

beforeAll(async () => {
  api = await startTestApi(
    { JOB_POLLING_INTERVAL_SECONDS: '1', GATEWAY_RATE_LIMITS: '3,5,7' },
    { provisioner },
  );
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
});
afterAll(() => api.close());

const valid = { ServiceName: 'valid-name', ServiceTier: 0, AdminMail: 'ops@example.com' };

/** Creates an endpoint and waits until it is live; answers its subscription key. */
async function liveEndpoint(tenant: TestTenant, serviceName: string, tier = 0): Promise<string> {
  const created = await createEndpoint(api, tenant, {
    ServiceName: serviceName,
    ServiceTier: tier,
    AdminMail: `admin@${tenant.name}.example`,
  });
  expect(created.statusCode, created.body).toBe(201);
  await waitForStatus(api, tenant, [2]);
  return subscriptionKeyOf(api, tenant);
}

async function deleteEndpoint(tenant: TestTenant): Promise<void> {
  const response = await api.call({ method: 'DELETE', url: ENDPOINT, tenant });
  expect(response.statusCode).toBe(204);
}

describe('validation of a new endpoint', () => {
  it.each([
    ['3', 3],
    ['-1', -1],
    ['a fraction', 1.5],
    ['a string', '1'],
    ['null', null],
  ])('answers 400 InvalidServiceTier for ServiceTier %s', async (_label, tier) => {
    const response = await createEndpoint(api, acme, { ...valid, ServiceTier: tier });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('InvalidServiceTier');
  });

  it('answers 400 InvalidServiceTier when ServiceTier is missing', async () => {
    const response = await createEndpoint(api, acme, {
      ServiceName: valid.ServiceName,
      AdminMail: valid.AdminMail,
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('InvalidServiceTier');
  });

  it.each([
    ['one character', 'a'],
    ['empty', ''],
    ['a leading digit', '1shop'],
    ['a leading hyphen', '-shop'],
    ['a trailing hyphen', 'shop-'],
    ['an underscore', 'my_shop'],
    ['a dot', 'my.shop'],
    ['a space', 'my shop'],
    ['a non-ASCII letter', 'schöp'],
    ['51 characters', `a${'b'.repeat(50)}`],
    ['a number', 12],
  ])('answers 400 InvalidServiceName for a name with %s', async (_label, name) => {
    const response = await createEndpoint(api, acme, { ...valid, ServiceName: name });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('InvalidServiceName');
  });

  it.each([
    ['no @', 'ops.example.com'],
    ['no domain dot', 'ops@example'],
    ['no local part', '@example.com'],
    ['a space', 'ops team@example.com'],
    ['two @', 'ops@@example.com'],
    ['empty', ''],
    ['over 254 characters', `${'o'.repeat(250)}@example.com`],
    ['not a string', true],
  ])('answers 400 InvalidAdminMail for an address with %s', async (_label, mail) => {
    const response = await createEndpoint(api, acme, { ...valid, AdminMail: mail });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('InvalidAdminMail');
  });

  it('answers 400 for an unknown field, and for a body that is not an object', async () => {
    const extra = await createEndpoint(api, acme, { ...valid, Status: 2 });
    expect(extra.statusCode).toBe(400);
    expect(errorBody(extra).Code).not.toMatch(/^Invalid(ServiceTier|ServiceName|AdminMail)$/);
    const array = await api.call({ method: 'POST', url: ENDPOINT, tenant: acme, body: [valid] });
    expect(array.statusCode).toBe(400);
    errorBody(array);
  });

  it('stored nothing for any of the invalid requests', async () => {
    const response = await api.call({ url: ENDPOINT, tenant: acme });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('EndpointNotFound');
  });

  it('accepts the shortest and the longest valid names (2 and 50 characters)', async () => {
    for (const name of ['ab', `a${'b'.repeat(48)}9`]) {
      const response = await createEndpoint(api, acme, { ...valid, ServiceName: name });
      expect(response.statusCode, response.body).toBe(201);
      await waitForStatus(api, acme, [2]);
      await deleteEndpoint(acme);
    }
  });
});

describe('a tenant without an endpoint', () => {
  it('answers 404 EndpointNotFound to GET and DELETE', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await api.call({ method, url: ENDPOINT, tenant: globex });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('EndpointNotFound');
    }
  });

  it('answers 404 to reading and regenerating the subscription key', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await api.call({ method, url: KEY_PATH, tenant: globex });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('SubscriptionKeyNotFound');
    }
  });
});

describe('authentication and scope', () => {
  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', ENDPOINT],
      ['POST', ENDPOINT],
      ['DELETE', ENDPOINT],
      ['GET', KEY_PATH],
      ['POST', KEY_PATH],
    ] as const) {
      const response = await api.call({
        method,
        url,
        tenant: acme,
        token: null,
        ...(method === 'POST' && url === ENDPOINT ? { body: valid } : {}),
      });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).Code).toBe('InvalidToken');
    }
  });

  it('answers 403 to a Private app token (no management scope) and creates nothing', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: 'Integrator', ApplicationTypeId: 2 },
    });
    expect(created.statusCode).toBe(201);
    const app = created.json<{ ApplicationId: string; ApplicationSecret: string }>();
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    for (const [method, url] of [
      ['GET', ENDPOINT],
      ['POST', ENDPOINT],
      ['DELETE', ENDPOINT],
      ['GET', KEY_PATH],
      ['POST', KEY_PATH],
    ] as const) {
      const response = await api.call({
        method,
        url,
        tenant: acme,
        token,
        ...(method === 'POST' && url === ENDPOINT ? { body: valid } : {}),
      });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).Code).toBe('InsufficientScope');
    }
    expect((await api.call({ url: ENDPOINT, tenant: acme })).statusCode).toBe(404);
  });
});

describe('create → in progress → live → gateway → delete → name free', () => {
  // Premium (7 requests per second here): the 7 gateway calls below that count stay within it.
  const name = 'Acme-Shop';
  let release: () => void;
  let key: string;

  it('answers 201 with Location and no body, and shows Status 1 while provisioning runs', async () => {
    release = provisioner.hold(name);
    const before = Date.now();
    const response = await createEndpoint(api, acme, {
      ServiceName: name,
      ServiceTier: 2,
      AdminMail: 'ops@acme.example',
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe(ENDPOINT);
    expect(response.body).toBe('');

    const detail = await api.call({ url: ENDPOINT, tenant: acme });
    expect(detail.statusCode).toBe(200);
    expect(detail.headers['content-type']).toBe('application/json; charset=utf-8');
    const endpoint = detail.json<Record<string, unknown>>();
    expect(endpoint).toEqual({
      ServiceName: name,
      ManagementPortalUrl: 'http://acme-shop.portal.integration.localhost:8080',
      Status: 1,
      ServiceTier: 2,
      AdminMail: 'ops@acme.example',
      CreationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) as string,
    });
    const created = Date.parse(endpoint.CreationDate as string);
    expect(created).toBeGreaterThanOrEqual(before - 5_000);
    expect(created).toBeLessThanOrEqual(Date.now() + 5_000);
    // The job has reached the provisioner and is held there: still Status 1.
    await provisioner.reached(name);
    expect(
      (await api.call({ url: ENDPOINT, tenant: acme })).json<{ Status: number }>().Status,
    ).toBe(1);
  });

  it('has no subscription key (404) and no live gateway while in progress', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await api.call({ method, url: KEY_PATH, tenant: acme });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('SubscriptionKeyNotFound');
    }
    const gateway = await viaGateway(api, name, { key: 'anything', token: acme.token });
    expect(gateway.statusCode).toBe(404);
    expect(errorBody(gateway).Code).toBe('EndpointNotFound');
  });

  it('answers 400 EndpointAlreadyExists to a second POST while in progress', async () => {
    const response = await createEndpoint(api, acme, { ...valid, ServiceName: 'other-name' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('EndpointAlreadyExists');
  });

  it('answers 409 ServiceNameTaken to another tenant taking the name, in any letter case', async () => {
    for (const taken of [name, name.toLowerCase(), name.toUpperCase()]) {
      const response = await createEndpoint(api, globex, { ...valid, ServiceName: taken });
      expect(response.statusCode).toBe(409);
      expect(errorBody(response).Code).toBe('ServiceNameTaken');
    }
    expect((await api.call({ url: ENDPOINT, tenant: globex })).statusCode).toBe(404);
  });

  it("does not show acme's endpoint to globex (404)", async () => {
    const response = await api.call({ url: ENDPOINT, tenant: globex });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('EndpointNotFound');
  });

  it('shows Status 1 in the portal while in progress', async () => {
    const status = await viaPortal(api, name, '/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      ServiceName: name,
      Status: 1,
      ServiceTier: 2,
      SubscriptionKeyActive: false,
    });
    const page = await viaPortal(api, name);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Creation in progress');
    expect(page.body).toContain('not issued yet');
  });

  it('goes live (Status 2) when provisioning ends, with a subscription key', async () => {
    release();
    const endpoint = await waitForStatus(api, acme, [2]);
    expect(endpoint.ServiceName).toBe(name);
    const call = provisioner.calls.find((c) => c.serviceName === name);
    expect(call).toEqual({
      serviceName: name,
      gatewayHost: 'acme-shop.integration.localhost',
      portalHost: 'acme-shop.portal.integration.localhost',
    });
    key = await subscriptionKeyOf(api, acme);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    // A second read answers the same key.
    expect(await subscriptionKeyOf(api, acme)).toBe(key);
  });

  it('still answers 400 EndpointAlreadyExists to a POST once live', async () => {
    const response = await createEndpoint(api, acme, { ...valid, ServiceName: 'other-name' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('EndpointAlreadyExists');
  });

  it("forwards a call with the key and the tenant's token into the tenant's API", async () => {
    const apps = await viaGateway(api, name, {
      key,
      token: acme.token,
      url: '/management/oauth/apps',
    });
    expect(apps.statusCode, apps.body).toBe(200);
    const ids = apps
      .json<{ Results: { ApplicationId: string }[] }>()
      .Results.map((a) => a.ApplicationId);
    expect(ids).toContain(acme.appId);
    expect(ids).not.toContain(globex.appId);
    expect(apps.headers['ratelimit-limit']).toBe('7');
    expect(apps.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    expect(apps.headers['ratelimit-reset']).toMatch(/^\d+$/);

    const own = await viaGateway(api, name, { key, token: acme.token });
    expect(own.statusCode).toBe(200);
    expect(own.json<{ ServiceName: string }>().ServiceName).toBe(name);
  });

  it('accepts the gateway host in any letter case', async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: ENDPOINT,
      headers: {
        host: 'ACME-SHOP.Integration.LocalHost',
        accept: 'application/vnd.xomni.api-v4-0',
        'x-subscription-key': key,
        authorization: `Bearer ${acme.token}`,
      },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 InvalidSubscriptionKey to a missing, wrong or empty key', async () => {
    for (const wrong of [undefined, `${key}x`, key.slice(1), '', key.toUpperCase()]) {
      if (wrong === key) continue;
      const response = await viaGateway(api, name, { key: wrong, token: acme.token });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).Code).toBe('InvalidSubscriptionKey');
    }
  });

  it('still needs a bearer token of this tenant behind the key (401)', async () => {
    const none = await viaGateway(api, name, { key });
    expect(none.statusCode).toBe(401);
    expect(errorBody(none).Code).toBe('InvalidToken');
    // globex's token is for globex's API: its audience is another tenant.
    const foreign = await viaGateway(api, name, { key, token: globex.token });
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).Code).toBe('InvalidToken');
  });

  it('answers 404 for a gateway host without a live endpoint', async () => {
    for (const host of ['nobody.integration.localhost', 'a.b.integration.localhost']) {
      const response = await api.app.inject({
        method: 'GET',
        url: ENDPOINT,
        headers: {
          host,
          accept: 'application/vnd.xomni.api-v4-0',
          'x-subscription-key': key,
          authorization: `Bearer ${acme.token}`,
        },
      });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('EndpointNotFound');
    }
  });

  it('regenerates the key: the old one stops working at once, the new one works', async () => {
    const response = await api.call({ method: 'POST', url: KEY_PATH, tenant: acme });
    expect(response.statusCode).toBe(200);
    const fresh = response.json<{ SubscriptionKey: string }>().SubscriptionKey;
    expect(fresh).not.toBe(key);
    expect(await subscriptionKeyOf(api, acme)).toBe(fresh);

    const old = await viaGateway(api, name, { key, token: acme.token });
    expect(old.statusCode).toBe(401);
    expect(errorBody(old).Code).toBe('InvalidSubscriptionKey');
    const current = await viaGateway(api, name, { key: fresh, token: acme.token });
    expect(current.statusCode).toBe(200);
    key = fresh;
  });

  it('keeps a notification for AdminMail in the outbox, unsent without SMTP_URL', async () => {
    const tenantId = await tenantIdOf(api, acme);
    // Earlier endpoints of acme (the name boundary test) have their own notifications.
    const records = await waitFor('the delivery attempt', async () => {
      const all = (await api.services.outbox.records(tenantId)).filter((r) =>
        r.subject.includes(name),
      );
      return all.length > 0 && all.every((r) => r.lastError !== null) ? all : undefined;
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      recipient: 'ops@acme.example',
      subject: expect.stringContaining(name) as string,
      sentAt: null,
      attempts: 0,
      lastError: expect.stringContaining('SMTP_URL') as string,
    });
    expect(records[0]!.body).toContain('acme-shop.integration.localhost');
    expect(records[0]!.body).toContain('http://acme-shop.portal.integration.localhost:8080');
    // The key itself is never mailed.
    expect(records[0]!.body).not.toContain(key);
  });

  it('deletes (204): the route, the key and the portal are gone at once', async () => {
    await deleteEndpoint(acme);
    expect((await api.call({ url: ENDPOINT, tenant: acme })).statusCode).toBe(404);
    const keyRead = await api.call({ url: KEY_PATH, tenant: acme });
    expect(keyRead.statusCode).toBe(404);
    const gateway = await viaGateway(api, name, { key, token: acme.token });
    expect(gateway.statusCode).toBe(404);
    expect(errorBody(gateway).Code).toBe('EndpointNotFound');
    const portal = await viaPortal(api, name);
    expect(portal.statusCode).toBe(404);
    expect((await viaPortal(api, name, '/status')).statusCode).toBe(404);
    const again = await api.call({ method: 'DELETE', url: ENDPOINT, tenant: acme });
    expect(again.statusCode).toBe(404);
    expect(errorBody(again).Code).toBe('EndpointNotFound');
  });

  it('frees the name: another tenant creates an endpoint with it', async () => {
    // Premium too: the rate-limit window counts by name, and acme's calls above may share it
    // (6 of them at most, so 7 in all).
    const globexKey = await liveEndpoint(globex, name.toLowerCase(), 2);
    expect(globexKey).not.toBe(key);
    // The gateway host now leads to globex's API.
    const response = await viaGateway(api, name, { key: globexKey, token: globex.token });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ ServiceName: string }>().ServiceName).toBe(name.toLowerCase());
    await deleteEndpoint(globex);
  });
});

describe('concurrent creations', () => {
  it('gives a name to one of two tenants asking at once; the other gets 409 ServiceNameTaken', async () => {
    const one = await api.createTenant('race-one');
    const two = await api.createTenant('race-two');
    const body = { ServiceName: 'race-svc', ServiceTier: 0, AdminMail: 'ops@race.example' };
    const answers = await Promise.all([
      createEndpoint(api, one, body),
      createEndpoint(api, two, body),
    ]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409]);
    expect(errorBody(answers.find((r) => r.statusCode === 409)!).Code).toBe('ServiceNameTaken');
    const winner = answers[0].statusCode === 201 ? one : two;
    await waitForStatus(api, winner, [2]);
    await deleteEndpoint(winner);
  });

  it('creates one endpoint for two POSTs of one tenant at once; the other gets 400 EndpointAlreadyExists', async () => {
    const tenant = await api.createTenant('race-self');
    const answers = await Promise.all(
      ['self-one', 'self-two'].map((ServiceName) =>
        createEndpoint(api, tenant, { ServiceName, ServiceTier: 0, AdminMail: 'ops@race.example' }),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 400]);
    expect(errorBody(answers.find((r) => r.statusCode === 400)!).Code).toBe(
      'EndpointAlreadyExists',
    );
    await waitForStatus(api, tenant, [2]);
    await deleteEndpoint(tenant);
  });

  it('replaces a failed endpoint once when two POSTs of its tenant come at once', async () => {
    const tenant = await api.createTenant('race-failed');
    provisioner.fail('failed-first', 'no capacity');
    const first = await createEndpoint(api, tenant, {
      ServiceName: 'failed-first',
      ServiceTier: 0,
      AdminMail: 'ops@race.example',
    });
    expect(first.statusCode).toBe(201);
    await waitForStatus(api, tenant, [3]);
    const answers = await Promise.all(
      ['retry-one', 'retry-two'].map((ServiceName) =>
        createEndpoint(api, tenant, { ServiceName, ServiceTier: 0, AdminMail: 'ops@race.example' }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const winner = answers[0]!.statusCode === 201 ? 'retry-one' : 'retry-two';
    const endpoint = await waitForStatus(api, tenant, [2]);
    expect(endpoint.ServiceName).toBe(winner);
    await deleteEndpoint(tenant);
  });
});

describe('the portal', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    tenant = await api.createTenant('portal-co');
    key = await liveEndpoint(tenant, 'Portal-Svc', 1);
  });
  afterAll(() => deleteEndpoint(tenant));

  it('serves an HTML page with the service, tier, status, the API reference and how to call', async () => {
    const response = await viaPortal(api, 'Portal-Svc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<h1>Portal-Svc</h1>');
    expect(html).toContain('Standard tier');
    expect(html).toContain('5 requests per second');
    expect(html).toMatch(/id="status"[^>]*>Live</);
    expect(html).toContain('id="key">active<');
    // How to call: the gateway URL, the header, the tenant's token URL.
    expect(html).toContain('http://portal-svc.integration.localhost:8080');
    expect(html).toContain('X-Subscription-Key');
    expect(html).toContain('http://portal-co.localhost:8080/oauth/token');
    // The API reference, from the OpenAPI document.
    const openapi = await api.call({ url: '/openapi.json' });
    const paths = Object.keys(openapi.json<{ paths: Record<string, unknown> }>().paths);
    for (const path of paths.filter((p) => /^\/(management|private)\//.test(p)).slice(0, 20)) {
      expect(html).toContain(`<code>${path}</code>`);
    }
    expect(html).toMatch(
      /<td class="method">DELETE<\/td><td><code>\/management\/integration\/endpoint<\/code>/,
    );
    expect(html).toContain('<code>/management/oauth/apps</code>');
    // No secret on a public page.
    expect(html).not.toContain(key);
  });

  it('answers the live status as JSON for the page to poll', async () => {
    const response = await viaPortal(api, 'portal-svc', '/status');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      ServiceName: 'Portal-Svc',
      Status: 2,
      ServiceTier: 1,
      SubscriptionKeyActive: true,
    });
  });

  it('answers 404 for a portal host without an endpoint', async () => {
    const response = await viaPortal(api, 'no-such-svc');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });
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

describe('a failed creation (Status 3)', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await api.createTenant('doomed-co');
  });

  it('ends in Status 3 when the gateway provisioner fails, keeping the reason for the operator', async () => {
    provisioner.fail('doomed-svc', 'gateway refused the route: quota of routes exceeded');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'doomed-svc',
      ServiceTier: 1,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode).toBe(201);
    const endpoint = await waitForStatus(api, tenant, [3]);
    expect(endpoint).toMatchObject({ ServiceName: 'doomed-svc', Status: 3, ServiceTier: 1 });
    // Permanent: tried once, not retried.
    expect(provisioner.callsFor('doomed-svc')).toBe(1);

    const tenantId = await tenantIdOf(api, tenant);
    const row = await api.services.integration.endpoints.row(tenantId);
    expect(row?.failureReason).toBe('gateway refused the route: quota of routes exceeded');
    // The reason is in the log, and not in the API.
    const logged = api.logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find(
        (l) => l.msg === 'integration endpoint provisioning failed' && l.service === 'doomed-svc',
      );
    expect(logged).toMatchObject({
      service: 'doomed-svc',
      reason: 'gateway refused the route: quota of routes exceeded',
    });
    const detail = await api.call({ url: ENDPOINT, tenant });
    expect(detail.body).not.toContain('quota');
  });

  it('has no key and no gateway when failed; the portal shows the failure', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await api.call({ method, url: KEY_PATH, tenant });
      expect(response.statusCode).toBe(404);
    }
    expect(
      (await viaGateway(api, 'doomed-svc', { key: 'x', token: tenant.token })).statusCode,
    ).toBe(404);
    // A portal page opened during the creation learns of the failure from /status.
    const status = await viaPortal(api, 'doomed-svc', '/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      ServiceName: 'doomed-svc',
      Status: 3,
      ServiceTier: 1,
      SubscriptionKeyActive: false,
    });
    const page = await viaPortal(api, 'doomed-svc');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="status"[^>]*data-status="3">Failed</);
    expect(page.body).not.toContain('quota');
  });

  it('notifies AdminMail of the failure with the reason', async () => {
    const tenantId = await tenantIdOf(api, tenant);
    const records = await waitFor('the failure notification', async () => {
      const all = await api.services.outbox.records(tenantId);
      return all.length > 0 ? all : undefined;
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      recipient: 'ops@doomed.example',
      subject: expect.stringMatching(/doomed-svc.*could not be created/) as string,
      sentAt: null,
    });
    expect(records[0]!.body).toContain('quota of routes exceeded');
  });

  it('is replaced by a new POST, which can succeed', async () => {
    provisioner.succeed('doomed-svc');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'doomed-svc',
      ServiceTier: 2,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = await waitForStatus(api, tenant, [2]);
    expect(endpoint.ServiceTier).toBe(2);
    const tenantId = await tenantIdOf(api, tenant);
    expect((await api.services.integration.endpoints.row(tenantId))?.failureReason).toBeNull();
    const portal = await viaPortal(api, 'doomed-svc', '/status');
    expect(portal.json<{ Status: number }>().Status).toBe(2);
    await deleteEndpoint(tenant);
  });

  it('may be deleted (204) while failed', async () => {
    provisioner.fail('doomed-two', 'no capacity');
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'doomed-two',
          ServiceTier: 0,
          AdminMail: 'ops@doomed.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [3]);
    await deleteEndpoint(tenant);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
  });

  it("holds no name: another tenant may take it, and its portal shows that tenant's endpoint", async () => {
    provisioner.fail('shared-svc', 'no capacity');
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'shared-svc',
          ServiceTier: 0,
          AdminMail: 'ops@doomed.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [3]);
    provisioner.succeed('shared-svc');
    const other = await api.createTenant('shared-co');
    await liveEndpoint(other, 'Shared-Svc', 2);
    const status = await viaPortal(api, 'shared-svc', '/status');
    expect(status.json()).toEqual({
      ServiceName: 'Shared-Svc',
      Status: 2,
      ServiceTier: 2,
      SubscriptionKeyActive: true,
    });
    await deleteEndpoint(other);
    await deleteEndpoint(tenant);
  });

  it('retries a transient failure and ends live (Status 2)', async () => {
    provisioner.failOnce('flaky-svc', new Error('connection reset by the gateway'));
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'flaky-svc',
      ServiceTier: 0,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode).toBe(201);
    await waitForStatus(api, tenant, [2], 30_000);
    expect(provisioner.callsFor('flaky-svc')).toBe(2);
    await deleteEndpoint(tenant);
  });
});

describe('deleting a creation in progress', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await api.createTenant('cancel-co');
  });

  it('cancels the job: nothing goes live, nobody is notified, the name is free', async () => {
    const release = provisioner.hold('cancel-svc');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'cancel-svc',
      ServiceTier: 0,
      AdminMail: 'ops@cancel.example',
    });
    expect(response.statusCode).toBe(201);
    const tenantId = await tenantIdOf(api, tenant);
    const jobId = (await api.services.integration.endpoints.row(tenantId))?.jobId;
    expect(jobId).toBeTruthy();
    await provisioner.reached('cancel-svc');

    await deleteEndpoint(tenant);
    const [job] = await api.database.handle.query<{ state: string }>(
      'select state::text from pgboss.job where id = $1',
      [jobId],
    );
    expect(job?.state).toBe('cancelled');
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);

    // The provisioner answers late: the deleted endpoint is not brought back.
    release();
    await sleep(500);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
    expect(await api.services.outbox.records(tenantId)).toEqual([]);

    // The name is free at once, for this tenant or another.
    const other = await api.createTenant('cancel-other');
    await liveEndpoint(other, 'cancel-svc');
    await deleteEndpoint(other);
  });

  it('cancels a creation whose job has not started yet', async () => {
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'queued-svc',
          ServiceTier: 0,
          AdminMail: 'ops@cancel.example',
        })
      ).statusCode,
    ).toBe(201);
    const tenantId = await tenantIdOf(api, tenant);
    const jobId = (await api.services.integration.endpoints.row(tenantId))?.jobId;
    await deleteEndpoint(tenant);
    const [job] = await api.database.handle.query<{ state: string }>(
      'select state::text from pgboss.job where id = $1',
      [jobId],
    );
    expect(job?.state).toBe('cancelled');
    // Longer than a polling interval: a worker would have taken the job by now.
    await sleep(1200);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
    expect(await api.services.outbox.records(tenantId)).toEqual([]);
  });
});

describe('ETag and If-Match', () => {
  it('answers an ETag that changes with the status and the key, and refuses a stale If-Match on DELETE (412)', async () => {
    const tenant = await api.createTenant('etagco');
    await liveEndpoint(tenant, 'etag-co');
    const first = await api.call({ url: ENDPOINT, tenant });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect((await api.call({ url: ENDPOINT, tenant })).headers.etag).toBe(etag);

    expect((await api.call({ method: 'POST', url: KEY_PATH, tenant })).statusCode).toBe(200);
    const after = (await api.call({ url: ENDPOINT, tenant })).headers.etag as string;
    expect(after).not.toBe(etag);

    const stale = await api.call({
      method: 'DELETE',
      url: ENDPOINT,
      tenant,
      headers: { 'if-match': etag },
    });
    expect(stale.statusCode).toBe(412);
    expect(errorBody(stale).Code).toBe('PreconditionFailed');
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(200);

    const current = await api.call({
      method: 'DELETE',
      url: ENDPOINT,
      tenant,
      headers: { 'if-match': after },
    });
    expect(current.statusCode).toBe(204);
  });
});
