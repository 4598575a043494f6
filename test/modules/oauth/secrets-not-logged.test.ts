// Secrets, tokens and Authorization headers never reach the log (contract §3, secrets), on the
// successful paths and on the failing ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { FORM, oauthRequest, type AppJson, type TokenJson } from './oauth-helpers.ts';

let api: TestApi;
let acme: TestTenant;

beforeAll(async () => {
  api = await startTestApi({ LOG_LEVEL: 'trace' });
  acme = await api.createTenant('acme');
});
afterAll(() => api.close());

describe('the log', () => {
  it('holds no secret, no access token and no Authorization header value', async () => {
    const secrets: string[] = [acme.secret];
    const tokens: string[] = [acme.token];
    const authorizations: string[] = [];

    const created = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: 'Logged?', ApplicationTypeId: 3 },
    });
    expect(created.statusCode).toBe(201);
    const app = created.json<AppJson>();
    secrets.push(app.ApplicationSecret!);

    const rotated = await api.call({
      method: 'POST',
      url: `/management/oauth/apps/${app.ApplicationId}/secret`,
      tenant: acme,
    });
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json<AppJson>().ApplicationSecret!;
    secrets.push(secret);

    // A token by HTTP Basic, one by form fields.
    const basic = basicAuth(app.ApplicationId, secret);
    authorizations.push(basic);
    const viaBasic = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials' },
      authorization: basic,
    });
    expect(viaBasic.statusCode).toBe(200);
    tokens.push(viaBasic.json<TokenJson>().access_token);
    const viaForm = await oauthRequest(api, acme, {
      form: {
        grant_type: 'client_credentials',
        client_id: app.ApplicationId,
        client_secret: secret,
      },
    });
    expect(viaForm.statusCode).toBe(200);
    tokens.push(viaForm.json<TokenJson>().access_token);

    // Failing attempts: the old secret, both ways, and a bad request that carries the secret.
    const stale = basicAuth(app.ApplicationId, app.ApplicationSecret!);
    authorizations.push(stale);
    expect(
      (
        await oauthRequest(api, acme, {
          form: { grant_type: 'client_credentials' },
          authorization: stale,
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await oauthRequest(api, acme, {
          form: {
            grant_type: 'client_credentials',
            client_id: app.ApplicationId,
            client_secret: app.ApplicationSecret!,
          },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await oauthRequest(api, acme, {
          form: { grant_type: 'password', client_id: app.ApplicationId, client_secret: secret },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await oauthRequest(api, acme, {
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: app.ApplicationId,
            client_secret: secret,
          }),
          contentType: 'application/json',
        })
      ).statusCode,
    ).toBe(400);

    // Bearer calls: good, insufficient scope, and a secret mistaken for a token.
    for (const token of tokens) {
      authorizations.push(`Bearer ${token}`);
      expect(
        (await api.call({ url: '/management/oauth/apps', tenant: acme, token })).statusCode,
      ).toBe(200);
    }
    const narrow = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials', scope: 'public' },
      authorization: basic,
    });
    const narrowToken = narrow.json<TokenJson>().access_token;
    tokens.push(narrowToken);
    expect(
      (await api.call({ url: '/management/oauth/apps', tenant: acme, token: narrowToken }))
        .statusCode,
    ).toBe(403);
    authorizations.push(`Bearer ${secret}`);
    expect(
      (await api.call({ url: '/management/oauth/apps', tenant: acme, token: secret })).statusCode,
    ).toBe(401);

    // Revocation carries a token in its body.
    const revoked = await api.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { host: acme.host, 'content-type': FORM, authorization: basic },
      payload: new URLSearchParams({ token: tokens[1]! }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect(
      (await api.call({ url: '/management/oauth/apps', tenant: acme, token: tokens[1]! }))
        .statusCode,
    ).toBe(401);

    const log = api.logs.text();
    expect(log.length).toBeGreaterThan(0);
    // The log did record these requests.
    expect(log).toContain('/oauth/token');
    expect(log).toContain('/management/oauth/apps');
    for (const value of [...secrets, ...tokens, ...authorizations]) {
      expect(log.includes(value), `log contains ${value.slice(0, 12)}…`).toBe(false);
    }
    // Nor any part of a token that identifies it (its signature), nor a Basic credential's base64.
    for (const token of tokens) expect(log).not.toContain(token.split('.')[2]!);
    for (const header of authorizations) expect(log).not.toContain(header.split(' ')[1]!);
  });

  it('redacts credentials from request headers and bodies that code logs', () => {
    api.app.log.info(
      {
        req: {
          headers: {
            authorization: 'Bearer leaked-token',
            'x-subscription-key': 'leaked-key',
            cookie: 'session=leaked-cookie',
          },
        },
        body: { client_secret: 'leaked-secret', ApplicationSecret: 'leaked-app-secret' },
      },
      'logged by mistake',
    );
    const line = api.logs
      .text()
      .split('\n')
      .find((l) => l.includes('logged by mistake'))!;
    expect(line).toContain('[redacted]');
    expect(line).not.toMatch(/leaked/);
  });
});
