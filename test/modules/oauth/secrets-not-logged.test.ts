// Secrets, tokens and Authorization headers never reach the log (contract §3, secrets), on the
// successful paths and on the failing ones.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant, basicAuth } from '../../support/test-api.ts';
import { FORM, oauthRequest, type AppJson, type TokenJson } from './oauth-fixtures.ts';

const api = useTestApi({ LOG_LEVEL: 'trace' });
const acme = useTenant(api, 'acme');

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
    ).toBe(415);

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

interface LogLine {
  requestId?: string;
  msg: string;
  url?: string;
}

/** The log lines of one request, by its X-Request-Id. */
const linesOf = (id: string): LogLine[] =>
  api.logs.lines.filter((l) => l.includes(id)).map((l) => JSON.parse(l) as LogLine);

describe('credentials in query strings', () => {
  it("keeps the console's authorization response (?code=…&state=…) out of the request log", async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: '/console/callback?code=leaked-code-4711&state=leaked-state-0815',
      headers: { host: acme.host, accept: 'text/html' },
    });
    const lines = linesOf(response.headers['x-request-id'] as string);
    const completed = lines.find((l) => l.msg === 'request completed');
    expect(completed?.url).toBe('/console/callback?code=[REDACTED]&state=[REDACTED]');
    expect(api.logs.text()).not.toMatch(/leaked-(code|state)/);
  });

  it('redacts every credential-bearing parameter and keeps the others as sent', async () => {
    const secretParams = [
      'code',
      'state',
      'access_token',
      'refresh_token',
      'id_token',
      'token',
      'client_secret',
      'client_assertion',
      'password',
      'new_password',
      'code_verifier',
      'api_key',
      'apikey',
      'subscription-key',
      'subscription_key',
      'X-Subscription-Key',
      'key',
      'secret',
      'signature',
      'sig',
      'X-Amz-Signature',
      'X-Amz-Credential',
      'X-Amz-Security-Token',
    ];
    const query = [
      'skip=0',
      ...secretParams.map((name, i) => `${encodeURIComponent(name)}=leaked-${i}-value`),
      // Case and percent-encoding of the name do not matter; nor does a repeat.
      'ACCESS_TOKEN=leaked-upper',
      'access%5Ftoken=leaked-encoded',
      'code=leaked-repeat',
      'take=5',
      'q=caf%C3%A9',
    ].join('&');
    const response = await api.call({ url: `/management/oauth/apps?${query}`, tenant: acme });
    expect(response.statusCode).toBe(200);
    const completed = linesOf(response.headers['x-request-id'] as string).find(
      (l) => l.msg === 'request completed',
    );
    expect(completed?.url).toBe(
      '/management/oauth/apps?' +
        [
          'skip=0',
          ...secretParams.map((name) => `${encodeURIComponent(name)}=[REDACTED]`),
          'ACCESS_TOKEN=[REDACTED]',
          'access%5Ftoken=[REDACTED]',
          'code=[REDACTED]',
          'take=5',
          'q=caf%C3%A9',
        ].join('&'),
    );
    expect(api.logs.text()).not.toContain('leaked-');
  });

  it('keeps a URL without a query string, or without credentials in it, as it was', async () => {
    for (const url of [
      '/management/oauth/apps',
      '/management/oauth/apps?skip=0&take=1',
      '/management/oauth/apps?skip',
      '/management/oauth/apps?codex=1&mycode=2',
    ]) {
      const response = await api.call({ url, tenant: acme });
      const completed = linesOf(response.headers['x-request-id'] as string).find(
        (l) => l.msg === 'request completed',
      );
      expect(completed?.url).toBe(url);
    }
  });

  it('redacts a credential with no value or an empty one', async () => {
    const response = await api.call({
      url: '/management/oauth/apps?code&state=&token=leaked-hash%23x',
      tenant: acme,
    });
    const completed = linesOf(response.headers['x-request-id'] as string).find(
      (l) => l.msg === 'request completed',
    );
    expect(completed?.url).toBe(
      '/management/oauth/apps?code=[REDACTED]&state=[REDACTED]&token=[REDACTED]',
    );
    expect(api.logs.text()).not.toContain('leaked-hash');
  });

  it('redacts the URL in the error log of a request refused before routing', async () => {
    // Not valid percent-encoded UTF-8: Fastify's error names the whole URL.
    const response = await api.app.inject({
      method: 'GET',
      url: '/management/oauth/apps/%FF?access_token=leaked-before-routing',
      headers: { host: acme.host },
    });
    expect(response.statusCode).toBe(400);
    const lines = linesOf(response.headers['x-request-id'] as string);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).toContain('access_token=[REDACTED]');
    expect(api.logs.text()).not.toContain('leaked-before-routing');
  });

  it('redacts the URL of a request object that code logs', () => {
    api.app.log.info(
      { req: { method: 'GET', url: '/console/callback?code=leaked-req-code', headers: {} } },
      'request logged by mistake',
    );
    const line = api.logs.lines.find((l) => l.includes('request logged by mistake'))!;
    expect(line).toContain('code=[REDACTED]');
    expect(line).not.toContain('leaked-req-code');
  });
});
