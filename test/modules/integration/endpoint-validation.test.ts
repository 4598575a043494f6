// /management/integration/endpoint: bad input, a tenant without an endpoint, authentication
// and scope.
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { createEndpoint, ENDPOINT, KEY_PATH, waitForStatus } from './integration-fixtures.ts';
import { useEndpointApi, api, acme, globex, valid, deleteEndpoint } from './endpoint-fixtures.ts';

useEndpointApi();

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
