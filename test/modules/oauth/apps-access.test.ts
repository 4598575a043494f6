// Authentication and scope on every /management/oauth/apps route (contract §3).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { createApp, expectCredentialsRequired, expectInvalidToken } from './oauth-fixtures.ts';
import { useAppsApi, api, acme, globex, APPS } from './apps-fixtures.ts';

useAppsApi();

describe('authentication and scope on every apps route', () => {
  const someId = randomUUID();
  const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }[] = [
    { method: 'POST', url: APPS, body: { Name: 'x', ApplicationTypeId: 1 } },
    { method: 'GET', url: APPS },
    { method: 'GET', url: `${APPS}/${someId}` },
    { method: 'PUT', url: `${APPS}/${someId}`, body: { Name: 'x', ApplicationTypeId: 1 } },
    { method: 'DELETE', url: `${APPS}/${someId}` },
    { method: 'POST', url: `${APPS}/${someId}/secret` },
  ];

  it.each(routes)(
    '$method $url without a token: 401 with a realm and no error code',
    async ({ method, url, body }) => {
      const response = await api.call({ method, url, tenant: acme, token: null, body });
      expectCredentialsRequired(response);
      errorBody(response);
    },
  );

  it.each(routes)(
    '$method $url with a malformed token: 401 invalid_token',
    async ({ method, url, body }) => {
      expectInvalidToken(await api.call({ method, url, tenant: acme, token: 'not.a.token', body }));
    },
  );

  it.each(routes)(
    '$method $url with a Private (type 2) token: 403 InsufficientScope',
    async ({ method, url, body }) => {
      const privateApp = await createApp(api, acme, 2);
      const token = await api.issueToken(
        acme,
        privateApp.ApplicationId,
        privateApp.ApplicationSecret,
      );
      const response = await api.call({ method, url, tenant: acme, token, body });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).Code).toBe('InsufficientScope');
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
    },
  );

  it.each(routes)(
    "$method $url with another tenant's management token: 401",
    async ({ method, url, body }) => {
      expectInvalidToken(await api.call({ method, url, tenant: acme, token: globex.token, body }));
    },
  );

  it('creates nothing when the caller lacks the management scope', async () => {
    const count = async () =>
      (await api.call({ url: `${APPS}?take=1`, tenant: acme })).json<{ TotalCount: number }>()
        .TotalCount;
    const before = await count();
    const consumer = await createApp(api, acme, 1);
    const token = await api.issueToken(acme, consumer.ApplicationId, consumer.ApplicationSecret);
    await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      token,
      body: { Name: 'sneaky', ApplicationTypeId: 3 },
    });
    expect(await count()).toBe(before + 1);
  });
});
