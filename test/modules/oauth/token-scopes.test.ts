// Bearer tokens at the API (contract §3): who may call which route prefix, by app type and scope.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessForPath } from '../../../src/http/route-access.ts';
import { errorBody } from '../../support/test-api.ts';
import {
  createApp,
  expectInvalidToken,
  oauthRequest,
  SCOPES_BY_TYPE,
  type TokenJson,
} from './oauth-fixtures.ts';
import {
  useTokenEnforcementApi,
  api,
  acme,
  APPS,
  appWithToken,
  listApps,
  revoke,
} from './token-enforcement-fixtures.ts';

useTokenEnforcementApi();

describe('accessForPath: the scope each route prefix needs', () => {
  it.each([
    ['/management/oauth/apps', 'management'],
    ['/management/oauth/apps/0b0e0c1a-0000-4000-8000-000000000000/secret', 'management'],
    ['/management', 'management'],
    ['/private/catalog/items', 'private'],
    ['/private', 'private'],
    ['/analytics/logs', 'public'],
    ['/company/logicaldevices', 'public'],
    ['/', 'public'],
    ['/managementx', 'public'],
    ['/privately', 'public'],
  ])('%s needs %s', (path, access) => {
    expect(accessForPath(path)).toBe(access);
  });

  it.each([
    '/health/live',
    '/health/ready',
    '/metrics',
    '/openapi.json',
    '/docs',
    '/docs/static/index.html',
  ])('%s is an operator route', (path) => {
    expect(accessForPath(path)).toBe('operator');
  });

  it.each([
    '/oauth/token',
    '/oauth/revoke',
    '/.well-known/jwks.json',
    '/.well-known/oauth-authorization-server',
  ])('%s needs no token', (path) => {
    expect(accessForPath(path)).toBe('anonymous');
  });
});

describe('scopes per app type', () => {
  it.each([
    [1, 403],
    [2, 403],
    [3, 200],
    [4, 403],
  ])('a type %i token on /management/oauth/apps: %i', async (type, status) => {
    const { token } = await appWithToken(type);
    expect(decodeJwt(token).scope).toBe(SCOPES_BY_TYPE[type]);
    const response = await listApps(token);
    expect(response.statusCode).toBe(status);
    if (status === 403) {
      expect(errorBody(response).Code).toBe('InsufficientScope');
      expect(response.headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="management"',
      );
    }
  });

  it('a management app narrowed to "public private" is refused management routes', async () => {
    const { token } = await appWithToken(3, 'public private');
    expect((await listApps(token)).statusCode).toBe(403);
  });

  it('ends the tokens of an app whose type changes', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token)).statusCode).toBe(200);
    const put = await api.call({
      method: 'PUT',
      url: `${APPS}/${app.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Demoted', ApplicationTypeId: 2 },
    });
    expect(put.statusCode).toBe(200);
    expectInvalidToken(await listApps(token));
    const fresh = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect(decodeJwt(fresh).scope).toBe('public private');
    expect((await listApps(fresh)).statusCode).toBe(403);
  });

  it('keeps the tokens of an app that is only renamed', async () => {
    const { app, token } = await appWithToken(3);
    await api.call({
      method: 'PUT',
      url: `${APPS}/${app.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Renamed', ApplicationTypeId: 3 },
    });
    expect((await listApps(token)).statusCode).toBe(200);
  });

  it('routes that need no token answer without one', async () => {
    for (const url of [
      '/.well-known/jwks.json',
      '/.well-known/oauth-authorization-server',
      '/health/live',
    ]) {
      const response = await api.call({ url, tenant: acme, token: null });
      expect(response.statusCode, url).toBe(200);
    }
  });
});

describe('a token endpoint response that the API then honours', () => {
  it('issues, uses and revokes with form-field client authentication', async () => {
    const app = await createApp(api, acme, 3);
    const issued = await oauthRequest(api, acme, {
      form: {
        grant_type: 'client_credentials',
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
    });
    const { access_token: token } = issued.json<TokenJson>();
    expect((await listApps(token)).statusCode).toBe(200);
    expect((await revoke(app, token)).statusCode).toBe(200);
    expectInvalidToken(await listApps(token));
  });
});
