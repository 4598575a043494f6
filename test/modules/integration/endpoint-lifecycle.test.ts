// /management/integration/endpoint in one process: create → in progress → live → gateway →
// delete → name free, the subscription key, and concurrent creations.
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import {
  createEndpoint,
  ENDPOINT,
  KEY_PATH,
  subscriptionKeyOf,
  tenantIdOf,
  viaGateway,
  viaPortal,
  waitFor,
  waitForStatus,
} from './integration-fixtures.ts';
import {
  useEndpointApi,
  provisioner,
  api,
  acme,
  globex,
  valid,
  liveEndpoint,
  deleteEndpoint,
} from './endpoint-fixtures.ts';

useEndpointApi();

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
    expect(response.headers['content-type']).toBeUndefined();

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
