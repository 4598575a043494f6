// POST /oauth/introspect (RFC 7662): an app of the tenant, acting as a resource server, asks
// whether a token is active now and what it stands for; every kind of invalid token is just
// inactive. Checked by hand and with oauth4webapi's introspection client.
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import { createPhysicalDevice, identityToken } from '../company/company-fixtures.ts';
import { createMember, signIn } from '../members/members-fixtures.ts';
import {
  createApp,
  injectFetch,
  oauthError,
  oauthRequest,
  type CreatedApp,
  handMadeAccessToken,
} from './oauth-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const ACME = 'http://acme.localhost:8080';
const INTROSPECT = '/oauth/introspect';
const ACTIVE_FIELDS = ['active', 'aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'];

/** The integrator's resource server: a Private app of acme. */
let server: CreatedApp;

beforeAll(async () => {
  server = await createApp(api, acme, 2, 'Resource server');
});

function introspect(
  token: string,
  options: { as?: CreatedApp; tenant?: TestTenant; form?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const as = options.as ?? server;
  return oauthRequest(api, options.tenant ?? acme, {
    url: INTROSPECT,
    form: { token, ...options.form },
    authorization: basicAuth(as.ApplicationId, as.ApplicationSecret),
  });
}

/** The answer to an active token: 200, not cached, and its body. */
function active(response: LightMyRequestResponse): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  const body = response.json<Record<string, unknown>>();
  expect(body.active).toBe(true);
  return body;
}

/** RFC 7662 §2.2: an inactive token is answered `{"active": false}` and nothing else. */
function expectInactive(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toEqual({ active: false });
}

async function appToken(type = 3, tenant: TestTenant = acme) {
  const app = await createApp(api, tenant, type);
  return { app, token: await api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret) };
}

describe('POST /oauth/introspect: an active app token', () => {
  it('answers active with the RFC 7662 §2.2 facts of the token', async () => {
    const { app, token } = await appToken(1);
    const body = active(await introspect(token));
    const claims = decodeJwt(token);
    expect(Object.keys(body).sort()).toEqual([...ACTIVE_FIELDS, 'token_type'].sort());
    expect(body).toEqual({
      active: true,
      scope: 'public',
      client_id: app.ApplicationId,
      token_type: 'Bearer',
      exp: claims.exp,
      iat: claims.iat,
      sub: app.ApplicationId,
      aud: ACME,
      iss: ACME,
      jti: claims.jti,
    });
  });

  it('authenticates the client with client_id and client_secret in the form too', async () => {
    const { token } = await appToken(3);
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: {
        token,
        token_type_hint: 'access_token',
        client_id: server.ApplicationId,
        client_secret: server.ApplicationSecret,
      },
    });
    expect(active(response).scope).toBe('public private management');
  });

  it('looks the token up the same way whatever the hint says', async () => {
    const { token } = await appToken(3);
    for (const hint of ['refresh_token', 'something_else'])
      active(await introspect(token, { form: { token_type_hint: hint } }));
  });

  it("answers for an app's token issued before tokens carried client_id: its subject", async () => {
    const { app } = await appToken(2);
    const earlier = await handMadeAccessToken(api, {
      issuer: ACME,
      subject: app.ApplicationId,
      claims: { scope: 'public private' },
    });
    expect(active(await introspect(earlier)).client_id).toBe(app.ApplicationId);
  });
});

describe('POST /oauth/introspect: an identity token', () => {
  it('answers active with dev, the physical device; inactive once the device is deleted', async () => {
    const app = await createApp(api, acme, 4);
    const device = await createPhysicalDevice(api, acme, null);
    const token = await identityToken(
      api,
      acme,
      { id: app.ApplicationId, secret: app.ApplicationSecret },
      device.DeviceId,
    );
    const body = active(await introspect(token));
    expect(body).toMatchObject({ client_id: app.ApplicationId, dev: device.DeviceId });
    const deleted = await api.call({
      method: 'DELETE',
      url: `/management/company/physicaldevices/${device.DeviceId}`,
      tenant: acme,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectInactive(await introspect(token));
  });
});

describe("POST /oauth/introspect: a member's token", () => {
  it('answers active with the console as client, the member as subject and its username', async () => {
    const member = await createMember(api, acme, 'introspected', ['analyst']);
    const session = await signIn(api, acme, 'introspected');
    const body = active(await introspect(session.access_token));
    expect(body).toMatchObject({
      client_id: 'console',
      sub: member.Id,
      username: 'introspected',
      scope: 'public private management',
      token_type: 'Bearer',
    });
  });

  it('answers inactive for its refresh token, which only the token endpoint takes', async () => {
    await createMember(api, acme, 'refreshing', ['analyst']);
    const session = await signIn(api, acme, 'refreshing');
    expectInactive(await introspect(session.refresh_token));
  });
});

describe('POST /oauth/introspect: a revoked token', () => {
  it('answers inactive once its app revoked it (RFC 7009)', async () => {
    const { app, token } = await appToken(3);
    active(await introspect(token));
    const revoked = await oauthRequest(api, acme, {
      url: '/oauth/revoke',
      form: { token },
      authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
    });
    expect(revoked.statusCode).toBe(200);
    expectInactive(await introspect(token));
  });

  it('answers inactive at once when another instance revoked it (no cached answer)', async () => {
    const { token } = await appToken(3);
    // This instance verified the token, and keeps it until the next invalidation poll.
    expect(
      (await api.call({ url: '/management/oauth/apps', tenant: acme, token })).statusCode,
    ).toBe(200);
    // What another instance's revocation leaves in the database, without this instance knowing.
    await api.database.handle.query(
      `insert into revoked_tokens (tenant_id, jti, expires_at)
       select id, $1, now() + interval '1 hour' from tenants where name = 'acme'`,
      [decodeJwt(token).jti],
    );
    expectInactive(await introspect(token));
  });

  it("answers inactive for a token issued before its app's secret was rotated", async () => {
    const { app, token } = await appToken(2);
    const rotated = await api.call({
      method: 'POST',
      url: `/management/oauth/apps/${app.ApplicationId}/secret`,
      tenant: acme,
    });
    expect(rotated.statusCode).toBe(200);
    expectInactive(await introspect(token));
  });

  it('answers inactive for a token of a deleted app', async () => {
    const { app, token } = await appToken(1);
    const deleted = await api.call({
      method: 'DELETE',
      url: `/management/oauth/apps/${app.ApplicationId}`,
      tenant: acme,
    });
    expect(deleted.statusCode).toBe(204);
    expectInactive(await introspect(token));
  });
});

describe('POST /oauth/introspect: an expired token', () => {
  it('answers inactive', async () => {
    const { app } = await appToken(3);
    const now = Math.floor(Date.now() / 1000);
    const expired = await handMadeAccessToken(api, {
      issuer: ACME,
      subject: app.ApplicationId,
      claims: { scope: 'public', client_id: app.ApplicationId },
      issuedAt: now - 7200,
      expiresAt: now - 3600,
    });
    expectInactive(await introspect(expired));
  });
});

describe("POST /oauth/introspect: another tenant's token", () => {
  it("answers inactive on acme for globex's token, which globex's own apps see active", async () => {
    expectInactive(await introspect(globex.token));
    const globexServer = await createApp(api, globex, 2);
    const body = active(await introspect(globex.token, { as: globexServer, tenant: globex }));
    expect(body.iss).toBe('http://globex.localhost:8080');
  });
});

describe('POST /oauth/introspect: not a token', () => {
  it.each(['garbage', 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.'])(
    'answers inactive for %s',
    async (token) => {
      expectInactive(await introspect(token));
    },
  );
});

describe('POST /oauth/introspect: client authentication', () => {
  it('answers 401 invalid_client with a Basic challenge for a wrong secret', async () => {
    const { token } = await appToken(3);
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: { token },
      authorization: basicAuth(server.ApplicationId, 'wrong'),
    });
    oauthError(response, 401, 'invalid_client');
    expect(response.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('answers 401 invalid_client for a wrong secret in the form', async () => {
    const { token } = await appToken(3);
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: { token, client_id: server.ApplicationId, client_secret: 'wrong' },
    });
    oauthError(response, 401, 'invalid_client');
  });

  it('answers 401 invalid_client without any client authentication', async () => {
    const { token } = await appToken(3);
    oauthError(
      await oauthRequest(api, acme, { url: INTROSPECT, form: { token } }),
      401,
      'invalid_client',
    );
  });

  it('answers 401 invalid_client to the console, a public client that cannot authenticate', async () => {
    const { token } = await appToken(3);
    oauthError(
      await oauthRequest(api, acme, { url: INTROSPECT, form: { token, client_id: 'console' } }),
      401,
      'invalid_client',
    );
  });

  it("answers 401 invalid_client to another tenant's app", async () => {
    const { token } = await appToken(3);
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: { token },
      authorization: basicAuth(globex.appId, globex.secret),
    });
    oauthError(response, 401, 'invalid_client');
  });

  it('takes no bearer token in place of client authentication', async () => {
    const { token } = await appToken(3);
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: { token },
      authorization: `Bearer ${token}`,
    });
    oauthError(response, 401, 'invalid_client');
  });
});

describe('POST /oauth/introspect: malformed requests', () => {
  it('answers 400 invalid_request without token', async () => {
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      form: {},
      authorization: basicAuth(server.ApplicationId, server.ApplicationSecret),
    });
    oauthError(response, 400, 'invalid_request');
  });

  it('answers 415 invalid_request for a JSON body, unread', async () => {
    const response = await oauthRequest(api, acme, {
      url: INTROSPECT,
      body: JSON.stringify({ token: acme.token }),
      contentType: 'application/json',
      authorization: basicAuth(server.ApplicationId, server.ApplicationSecret),
    });
    oauthError(response, 415, 'invalid_request');
  });
});

describe('POST /oauth/introspect: with oauth4webapi', () => {
  it('discovers the endpoint and reads active and inactive answers', async () => {
    const options = { [oauth.customFetch]: injectFetch(api), [oauth.allowInsecureRequests]: true };
    const issuer = new URL(ACME);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    expect(as.introspection_endpoint).toBe(`${ACME}${INTROSPECT}`);
    const client: oauth.Client = { client_id: server.ApplicationId };
    const auth = oauth.ClientSecretBasic(server.ApplicationSecret);
    const { app, token } = await appToken(2);

    const answer = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, token, options),
    );
    expect(answer).toMatchObject({
      active: true,
      client_id: app.ApplicationId,
      sub: app.ApplicationId,
      scope: 'public private',
      token_type: 'Bearer',
      iss: ACME,
      aud: ACME,
    });

    const inactive = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, 'garbage', options),
    );
    expect(inactive).toEqual({ active: false });
  });

  it('surfaces invalid_client for a wrong secret', async () => {
    const options = { [oauth.customFetch]: injectFetch(api), [oauth.allowInsecureRequests]: true };
    const issuer = new URL(ACME);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client: oauth.Client = { client_id: server.ApplicationId };
    const response = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretPost('wrong'),
      acme.token,
      options,
    );
    const failure = await oauth.processIntrospectionResponse(as, client, response).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
    expect((failure as oauth.ResponseBodyError).error).toBe('invalid_client');
  });
});
