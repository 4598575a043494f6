// Bearer tokens at the API (contract §3): who may call which route prefix, and every way a token
// stops working — another tenant, deletion, secret rotation, revocation, expiry, forgery — on
// this instance at once and on another instance after its next poll.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  SignJWT,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JSONWebKeySet,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../../src/app.ts';
import { accessForPath } from '../../../src/http/route-access.ts';
import {
  basicAuth,
  errorBody,
  LogLines,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../../support/test-api.ts';
import {
  createApp,
  expectInvalidToken,
  oauthError,
  oauthRequest,
  SCOPES_BY_TYPE,
  type CreatedApp,
  type TokenJson,
} from './oauth-helpers.ts';

let api: TestApi;
let acme: TestTenant;
let globex: TestTenant;

const APPS = '/management/oauth/apps';
const BASE_URL = 'http://acme.localhost:8080';

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
});
afterAll(() => api.close());

async function appWithToken(type = 3, scope?: string): Promise<{ app: CreatedApp; token: string }> {
  const app = await createApp(api, acme, type);
  return {
    app,
    token: await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret, scope),
  };
}

const listApps = (token: string, tenant: TestTenant = acme, on: FastifyInstance = api.app) =>
  on.inject({
    method: 'GET',
    url: APPS,
    headers: {
      host: tenant.host,
      accept: 'application/vnd.xomni.api-v4-0',
      authorization: `Bearer ${token}`,
    },
  });

function revoke(app: CreatedApp, token: string, tenant: TestTenant = acme) {
  return oauthRequest(api, tenant, {
    url: '/oauth/revoke',
    form: { token },
    authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
  });
}

/** A token signed with the server's current key, with the claims the server issues; overrides apply. */
async function craftToken(
  app: CreatedApp,
  claims: { iat: number; exp: number; scope?: string; iss?: string; aud?: string; ver?: number },
): Promise<string> {
  const { kid, key } = api.services.oauth.tokens.keys.signingKey();
  return new SignJWT({
    scope: claims.scope ?? SCOPES_BY_TYPE[app.ApplicationTypeId]!,
    ver: claims.ver ?? 1,
  })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
    .setIssuer(claims.iss ?? BASE_URL)
    .setAudience(claims.aud ?? BASE_URL)
    .setSubject(app.ApplicationId)
    .setJti(randomUUID())
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(key);
}

const now = () => Math.floor(Date.now() / 1000);

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

describe('tokens that are refused with 401 invalid_token', () => {
  it("refuses a token on another tenant's host", async () => {
    expect((await listApps(globex.token, globex)).statusCode).toBe(200);
    expectInvalidToken(await listApps(globex.token, acme));
    // Also when the token has not been seen (and cached) anywhere yet.
    const fresh = await api.issueToken(globex, globex.appId, globex.secret);
    expectInvalidToken(await listApps(fresh, acme));
    expect((await listApps(fresh, globex)).statusCode).toBe(200);
  });

  it('refuses the token of a deleted app', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token)).statusCode).toBe(200);
    expect(
      (await api.call({ method: 'DELETE', url: `${APPS}/${app.ApplicationId}`, tenant: acme }))
        .statusCode,
    ).toBe(204);
    expectInvalidToken(await listApps(token));
  });

  it('refuses, after its secret is rotated, a token issued before (used or not)', async () => {
    const { app, token: used } = await appWithToken(3);
    const unused = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect((await listApps(used)).statusCode).toBe(200);
    const rotated = await api.call({
      method: 'POST',
      url: `${APPS}/${app.ApplicationId}/secret`,
      tenant: acme,
    });
    expect(rotated.statusCode).toBe(200);
    expectInvalidToken(await listApps(used));
    expectInvalidToken(await listApps(unused));
    const fresh = await api.issueToken(
      acme,
      app.ApplicationId,
      rotated.json<{ ApplicationSecret: string }>().ApplicationSecret,
    );
    expect((await listApps(fresh)).statusCode).toBe(200);
  });

  it('refuses an expired token', async () => {
    const { app } = await appWithToken(3);
    const expired = await craftToken(app, { iat: now() - 7200, exp: now() - 3600 });
    expectInvalidToken(await listApps(expired));
    expect((await listApps(expired)).headers['www-authenticate']).toContain('expired');
  });

  it('refuses a token once it expires, also after it was accepted (and cached)', async () => {
    const { app } = await appWithToken(3);
    const shortLived = await craftToken(app, { iat: now() - 10, exp: now() + 2 });
    expect((await listApps(shortLived)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await listApps(shortLived);
    expectInvalidToken(response);
    expect(response.headers['www-authenticate']).toContain('expired');
  });

  it('accepts a crafted token with the same claims that is still valid (the crafting is faithful)', async () => {
    const { app } = await appWithToken(3);
    const valid = await craftToken(app, { iat: now() - 10, exp: now() + 600 });
    expect((await listApps(valid)).statusCode).toBe(200);
  });

  it('refuses a token signed by the server for another issuer or audience', async () => {
    const { app } = await appWithToken(3);
    expectInvalidToken(
      await listApps(
        await craftToken(app, { iat: now(), exp: now() + 600, iss: 'http://evil.localhost:8080' }),
      ),
    );
    expectInvalidToken(
      await listApps(
        await craftToken(app, {
          iat: now(),
          exp: now() + 600,
          aud: 'http://globex.localhost:8080',
        }),
      ),
    );
  });

  it('refuses a token whose secret version is not the current one', async () => {
    const { app } = await appWithToken(3);
    expectInvalidToken(
      await listApps(await craftToken(app, { iat: now(), exp: now() + 600, ver: 2 })),
    );
  });

  it('refuses a token signed by a key the server does not know', async () => {
    const { app, token } = await appWithToken(3);
    const { privateKey } = await generateKeyPair('ES256');
    const claims = decodeJwt(token);
    const forged = await new SignJWT({ scope: claims.scope, ver: claims.ver })
      .setProtectedHeader({ alg: 'ES256', kid: randomUUID() })
      .setIssuer(BASE_URL)
      .setAudience(BASE_URL)
      .setSubject(app.ApplicationId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    expectInvalidToken(await listApps(forged));
    // An unknown key under the server's own kid does not verify either.
    const sameKid = await new SignJWT({ scope: claims.scope, ver: claims.ver })
      .setProtectedHeader({ alg: 'ES256', kid: decodeProtectedHeader(token).kid! })
      .setIssuer(BASE_URL)
      .setAudience(BASE_URL)
      .setSubject(app.ApplicationId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    expectInvalidToken(await listApps(sameKid));
  });

  it('refuses a token whose payload was altered', async () => {
    const { token } = await appWithToken(2);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const altered = Buffer.from(
      JSON.stringify({ ...claims, scope: 'public private management' }),
    ).toString('base64url');
    expectInvalidToken(await listApps(`${header}.${altered}.${signature}`));
  });

  it('refuses an unsigned (alg none) token', async () => {
    const { app } = await appWithToken(3);
    const header = Buffer.from(
      JSON.stringify({ alg: 'none', kid: api.services.oauth.tokens.keys.signingKey().kid }),
    ).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        scope: 'public private management',
        ver: 1,
        iss: BASE_URL,
        aud: BASE_URL,
        sub: app.ApplicationId,
        jti: randomUUID(),
        iat: now(),
        exp: now() + 600,
      }),
    ).toString('base64url');
    expectInvalidToken(await listApps(`${header}.${payload}.`));
  });

  it.each([
    ['a malformed token', 'Bearer not-a-jwt'],
    ['a token of three garbage parts', 'Bearer aaa.bbb.ccc'],
    ['Basic credentials', 'Basic xyz'],
    ['an empty Bearer', 'Bearer '],
    ['a bare token without scheme', 'eyJhbGciOiJFUzI1NiJ9.e30.sig'],
  ])('refuses %s', async (_case, authorization) => {
    const response = await api.call({
      url: APPS,
      tenant: acme,
      token: null,
      headers: { authorization },
    });
    expectInvalidToken(response);
    errorBody(response);
  });

  it('refuses a request without Authorization', async () => {
    expectInvalidToken(await api.call({ url: APPS, tenant: acme, token: null }));
  });

  it('accepts the Bearer scheme in any case', async () => {
    const response = await api.call({
      url: APPS,
      tenant: acme,
      token: null,
      headers: { authorization: `bearer ${acme.token}` },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /oauth/revoke', () => {
  it('revokes a token at once; other tokens of the app keep working', async () => {
    const { app, token } = await appWithToken(3);
    const other = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect((await listApps(token)).statusCode).toBe(200);
    const response = await revoke(app, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe('');
    expectInvalidToken(await listApps(token));
    expect((await listApps(other)).statusCode).toBe(200);
  });

  it('accepts client_id and client_secret in the form', async () => {
    const { app, token } = await appWithToken(2);
    const response = await oauthRequest(api, acme, {
      url: '/oauth/revoke',
      form: {
        token,
        token_type_hint: 'access_token',
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const check = await api.call({ url: '/nothing-here', tenant: acme, token });
    expect(check.statusCode).toBe(404);
    expectInvalidToken(await api.call({ url: `${APPS}`, tenant: acme, token }));
  });

  it('answers 200 when revoking a token twice', async () => {
    const { app, token } = await appWithToken(3);
    expect((await revoke(app, token)).statusCode).toBe(200);
    expect((await revoke(app, token)).statusCode).toBe(200);
  });

  it("answers 400 unauthorized_client when a client revokes another client's token, which keeps working", async () => {
    const mine = await appWithToken(3);
    const theirs = await appWithToken(3);
    oauthError(await revoke(mine.app, theirs.token), 400, 'unauthorized_client');
    expect((await listApps(theirs.token)).statusCode).toBe(200);
  });

  it.each(['garbage', 'a.b.c', ''])(
    "answers 200 for the token '%s' that is not valid anyway",
    async (token) => {
      const { app } = await appWithToken(1);
      const response = await revoke(app, token);
      expect(response.statusCode, response.body).toBe(200);
    },
  );

  it("answers 200 for another tenant's token and leaves it working", async () => {
    const { app } = await appWithToken(1);
    expect((await revoke(app, globex.token)).statusCode).toBe(200);
    expect((await listApps(globex.token, globex)).statusCode).toBe(200);
  });

  it('revokes an expired token without error', async () => {
    const { app } = await appWithToken(3);
    const expired = await craftToken(app, { iat: now() - 7200, exp: now() - 3600 });
    expect((await revoke(app, expired)).statusCode).toBe(200);
  });

  it('answers 401 invalid_client for a wrong secret, and revokes nothing', async () => {
    const { app, token } = await appWithToken(3);
    const response = await oauthRequest(api, acme, {
      url: '/oauth/revoke',
      form: { token },
      authorization: basicAuth(app.ApplicationId, 'wrong'),
    });
    oauthError(response, 401, 'invalid_client');
    expect((await listApps(token)).statusCode).toBe(200);
  });

  it('answers 400 invalid_request without the token parameter or with a JSON body', async () => {
    const { app } = await appWithToken(3);
    oauthError(
      await oauthRequest(api, acme, {
        url: '/oauth/revoke',
        form: {},
        authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
      }),
      400,
      'invalid_request',
    );
    oauthError(
      await oauthRequest(api, acme, {
        url: '/oauth/revoke',
        body: JSON.stringify({ token: 'x' }),
        contentType: 'application/json',
        authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
      }),
      400,
      'invalid_request',
    );
  });
});

describe('signing key rotation', () => {
  it('keeps tokens signed before working, signs new ones with the new key, and lists both keys', async () => {
    const { app, token: before } = await appWithToken(3);
    const oldKid = decodeProtectedHeader(before).kid!;
    const newKid = await api.services.oauth.tokens.keys.rotate();
    expect(newKid).not.toBe(oldKid);

    // First use of the old token after the rotation: verified with the retired key.
    expect((await listApps(before)).statusCode).toBe(200);
    const after = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect((await listApps(after)).statusCode).toBe(200);

    const jwks = (
      await api.call({ url: '/.well-known/jwks.json', tenant: acme, token: null })
    ).json<JSONWebKeySet>();
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
  });
});

describe('invalidation across instances on one database', () => {
  let services2: Services;
  let app2: FastifyInstance;

  beforeAll(async () => {
    services2 = createServices(api.config, api.database.handle);
    app2 = await buildApp(services2, { logStream: new LogLines() });
    await app2.ready();
    // The test drives the polling itself.
    services2.oauth.tokens.stop();
  });
  afterAll(() => app2.close());

  it('accepts on instance 2 a token issued by instance 1, with the same keys', async () => {
    const { token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
  });

  it('refuses on instance 2, after its next poll, a token revoked on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect((await revoke(app, token)).statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, the tokens of an app deleted on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect(
      (await api.call({ method: 'DELETE', url: `${APPS}/${app.ApplicationId}`, tenant: acme }))
        .statusCode,
    ).toBe(204);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, tokens from before a secret rotation on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect(
      (await api.call({ method: 'POST', url: `${APPS}/${app.ApplicationId}/secret`, tenant: acme }))
        .statusCode,
    ).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, tokens from before a type change on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    const put = await api.call({
      method: 'PUT',
      url: `${APPS}/${app.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Demoted', ApplicationTypeId: 1 },
    });
    expect(put.statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('leaves the other cached tokens on instance 2 alone', async () => {
    const a = await appWithToken(3);
    const b = await appWithToken(3);
    expect((await listApps(a.token, acme, app2)).statusCode).toBe(200);
    expect((await listApps(b.token, acme, app2)).statusCode).toBe(200);
    expect((await revoke(a.app, a.token)).statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(a.token, acme, app2));
    expect((await listApps(b.token, acme, app2)).statusCode).toBe(200);
  });

  it('verifies on instance 2 a token signed with a key that instance 1 made after instance 2 started', async () => {
    const { app } = await appWithToken(3);
    await api.services.oauth.tokens.keys.rotate();
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    const response = await listApps(token, acme, app2);
    expect(response.statusCode, response.body).toBe(200);
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
