// POST /oauth/token (RFC 6749 client credentials), RFC 8414 metadata and the JWKS (contract §3).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
  errorBody,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../../support/test-api.ts';
import {
  createApp,
  FORM,
  oauthError,
  oauthRequest,
  SCOPES_BY_TYPE,
  type CreatedApp,
  type TokenJson,
} from './oauth-helpers.ts';

let api: TestApi;
let acme: TestTenant;
let globex: TestTenant;
const apps: Record<number, CreatedApp> = {};

const BASE_URL = 'http://acme.localhost:8080';
const CLIENT_CREDENTIALS = { grant_type: 'client_credentials' };

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
  for (const type of [1, 2, 3, 4]) apps[type] = await createApp(api, acme, type);
});
afterAll(() => api.close());

const basic = (app: CreatedApp) => basicAuth(app.ApplicationId, app.ApplicationSecret);

describe('POST /oauth/token', () => {
  it.each([1, 2, 3, 4])(
    'issues a token to a type %i app authenticated with HTTP Basic',
    async (type) => {
      const response = await oauthRequest(api, acme, {
        form: CLIENT_CREDENTIALS,
        authorization: basic(apps[type]!),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.pragma).toBe('no-cache');
      const body = response.json<TokenJson>();
      expect(body).toEqual({
        access_token: expect.any(String) as unknown,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: SCOPES_BY_TYPE[type],
      });
      expect(decodeJwt(body.access_token).scope).toBe(SCOPES_BY_TYPE[type]);
    },
  );

  it('issues a token to a client authenticated with client_id and client_secret form fields', async () => {
    const app = apps[2]!;
    const response = await oauthRequest(api, acme, {
      form: {
        ...CLIENT_CREDENTIALS,
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TokenJson>()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'public private',
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('accepts an upper-case client id', async () => {
    const app = apps[1]!;
    const response = await oauthRequest(api, acme, {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId.toUpperCase(), app.ApplicationSecret),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(decodeJwt(response.json<TokenJson>().access_token).sub).toBe(app.ApplicationId);
  });

  it('issues a new token (new jti) on every request', async () => {
    const [a, b] = [
      await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(apps[3]!) }),
      await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(apps[3]!) }),
    ];
    expect(decodeJwt(a.json<TokenJson>().access_token).jti).not.toBe(
      decodeJwt(b.json<TokenJson>().access_token).jti,
    );
  });

  it('answers 400 invalid_request when the client authenticates with Basic and form fields at once', async () => {
    const app = apps[3]!;
    const response = await oauthRequest(api, acme, {
      form: {
        ...CLIENT_CREDENTIALS,
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
      authorization: basic(app),
    });
    oauthError(response, 400, 'invalid_request');
  });

  it('answers 400 invalid_request without grant_type', async () => {
    oauthError(
      await oauthRequest(api, acme, { form: {}, authorization: basic(apps[3]!) }),
      400,
      'invalid_request',
    );
  });

  it.each(['password', 'authorization_code', 'refresh_token', ''])(
    'answers 400 unsupported_grant_type for grant_type=%s',
    async (grant) => {
      oauthError(
        await oauthRequest(api, acme, {
          form: { grant_type: grant },
          authorization: basic(apps[3]!),
        }),
        400,
        'unsupported_grant_type',
      );
    },
  );

  it('answers 401 invalid_client with a Basic challenge for a wrong secret', async () => {
    const app = apps[4]!;
    const response = await oauthRequest(api, acme, {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId, 'wrong-secret'),
    });
    oauthError(response, 401, 'invalid_client');
    expect(response.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('answers 401 invalid_client for a wrong secret in the form', async () => {
    const app = apps[4]!;
    const response = await oauthRequest(api, acme, {
      form: { ...CLIENT_CREDENTIALS, client_id: app.ApplicationId, client_secret: 'nope' },
    });
    oauthError(response, 401, 'invalid_client');
  });

  it.each([
    ['an unknown client id', randomUUID()],
    ['a client id that is not a uuid', 'my-client'],
    ['an empty client id', ''],
  ])('answers 401 invalid_client for %s', async (_case, clientId) => {
    const response = await oauthRequest(api, acme, {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(clientId, apps[1]!.ApplicationSecret),
    });
    oauthError(response, 401, 'invalid_client');
  });

  it("answers 401 invalid_client for another tenant's app on this tenant's host", async () => {
    const response = await oauthRequest(api, acme, {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(globex.appId, globex.secret),
    });
    oauthError(response, 401, 'invalid_client');
  });

  it('answers 401 invalid_client without any client authentication', async () => {
    oauthError(await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS }), 401, 'invalid_client');
    oauthError(
      await oauthRequest(api, acme, {
        form: { ...CLIENT_CREDENTIALS, client_id: apps[1]!.ApplicationId },
      }),
      401,
      'invalid_client',
    );
  });

  it.each(['Bearer abc', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`])(
    'answers 401 invalid_client for the Authorization header %s',
    async (authorization) => {
      oauthError(
        await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization }),
        401,
        'invalid_client',
      );
    },
  );

  it("issues a token with only the asked subset of the app's scopes, which then cannot manage", async () => {
    const response = await oauthRequest(api, acme, {
      form: { ...CLIENT_CREDENTIALS, scope: 'public' },
      authorization: basic(apps[3]!),
    });
    expect(response.statusCode, response.body).toBe(200);
    const token = response.json<TokenJson>();
    expect(token.scope).toBe('public');
    expect(decodeJwt(token.access_token).scope).toBe('public');
    const managed = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      token: token.access_token,
    });
    expect(managed.statusCode).toBe(403);
    expect(errorBody(managed).Code).toBe('InsufficientScope');
  });

  it('answers the asked scopes in canonical order, without duplicates', async () => {
    const response = await oauthRequest(api, acme, {
      form: { ...CLIENT_CREDENTIALS, scope: 'management public management' },
      authorization: basic(apps[3]!),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TokenJson>().scope).toBe('public management');
  });

  it.each([
    [2, 'management'],
    [1, 'private'],
    [4, 'public private'],
    [3, 'admin'],
    [3, ''],
  ])("answers 400 invalid_scope when a type %i app asks for '%s'", async (type, scope) => {
    oauthError(
      await oauthRequest(api, acme, {
        form: { ...CLIENT_CREDENTIALS, scope },
        authorization: basic(apps[type]!),
      }),
      400,
      'invalid_scope',
    );
  });

  it.each([2, 3])(
    'answers 400 unauthorized_client when a type %i app asks for an identity token',
    async (type) => {
      const response = await oauthRequest(api, acme, {
        form: { ...CLIENT_CREDENTIALS, physical_device_id: 'kiosk-1' },
        authorization: basic(apps[type]!),
      });
      oauthError(response, 400, 'unauthorized_client');
    },
  );

  it.each([1, 4])(
    'answers 400 invalid_grant when a type %i app asks for an identity token of an unregistered device',
    async (type) => {
      const response = await oauthRequest(api, acme, {
        form: { ...CLIENT_CREDENTIALS, physical_device_id: 'kiosk-1' },
        authorization: basic(apps[type]!),
      });
      oauthError(response, 400, 'invalid_grant');
    },
  );

  it('answers 400 invalid_request for a JSON body', async () => {
    const app = apps[3]!;
    for (const body of [
      { grant_type: 'client_credentials' },
      {
        grant_type: 'client_credentials',
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
      {},
    ]) {
      const response = await oauthRequest(api, acme, {
        body: JSON.stringify(body),
        contentType: 'application/json',
        authorization: basic(app),
      });
      oauthError(response, 400, 'invalid_request');
    }
  });

  it('answers 400 invalid_request for a body of another content type', async () => {
    const response = await oauthRequest(api, acme, {
      body: 'grant_type=client_credentials',
      contentType: 'text/plain',
      authorization: basic(apps[3]!),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('invalid_request');
  });

  it('signs an ES256 JWT with kid, whose claims name the tenant, the app, and an hour of life', async () => {
    const app = apps[2]!;
    const before = Math.floor(Date.now() / 1000);
    const token = (
      await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(app) })
    ).json<TokenJson>().access_token;
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(BASE_URL);
    expect(claims.aud).toBe(BASE_URL);
    expect(claims.sub).toBe(app.ApplicationId);
    expect(claims.scope).toBe('public private');
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.iat).toBeGreaterThanOrEqual(before - 1);
    expect(claims.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.dev).toBeUndefined();
  });

  it("puts the other tenant's base URL into that tenant's tokens", async () => {
    const claims = decodeJwt(globex.token);
    expect(claims.iss).toBe('http://globex.localhost:8080');
    expect(claims.aud).toBe('http://globex.localhost:8080');
    expect(claims.sub).toBe(globex.appId);
  });

  it('answers 404 with the API error body on an unknown tenant host', async () => {
    const response = await oauthRequest(api, 'nosuchtenant', {
      form: CLIENT_CREDENTIALS,
      authorization: basic(apps[3]!),
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('TenantNotFound');
  });

  it('answers GET with 404 (only POST is an operation)', async () => {
    const response = await api.call({ url: '/oauth/token', tenant: acme });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /oauth/token: throttling failed client authentication', () => {
  it('locks a client id after 5 wrong secrets from one source, even for the right secret, with Retry-After', async () => {
    const app = await createApp(api, acme, 3, 'Throttled');
    const wrong = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId, 'guess'),
    };
    for (let i = 0; i < 5; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');

    // The lock is short (1 s at first): these follow at once, the right secret first.
    for (const attempt of [{ form: CLIENT_CREDENTIALS, authorization: basic(app) }, wrong]) {
      const locked = await oauthRequest(api, acme, attempt);
      oauthError(locked, 429, 'slow_down');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // The form-field method is locked as well.
    const form = await oauthRequest(api, acme, {
      form: {
        ...CLIENT_CREDENTIALS,
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
    });
    oauthError(form, 429, 'slow_down');

    // The rightful client elsewhere is not locked out.
    const elsewhere = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '10.1.2.3',
      headers: { host: acme.host, 'content-type': FORM, authorization: basic(app) },
      payload: new URLSearchParams(CLIENT_CREDENTIALS).toString(),
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    // Nor are other clients from the locked source.
    expect(
      (await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(apps[1]!) }))
        .statusCode,
    ).toBe(200);
  });

  it('locks unknown client ids too', async () => {
    const unknown = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(randomUUID(), 'guess'),
      remoteAddress: '10.9.9.9',
    };
    for (let i = 0; i < 5; i++)
      oauthError(await oauthRequest(api, acme, unknown), 401, 'invalid_client');
    oauthError(await oauthRequest(api, acme, unknown), 429, 'slow_down');
  });

  it('forgets earlier failures after a success', async () => {
    const app = await createApp(api, acme, 1, 'Forgiven');
    const wrong = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId, 'guess'),
      remoteAddress: '10.4.4.4',
    };
    const right = {
      form: CLIENT_CREDENTIALS,
      authorization: basic(app),
      remoteAddress: '10.4.4.4',
    };
    for (let i = 0; i < 4; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');
    expect((await oauthRequest(api, acme, right)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');
    expect((await oauthRequest(api, acme, right)).statusCode).toBe(200);
  });
});

describe('GET /.well-known/oauth-authorization-server', () => {
  it("answers the tenant's RFC 8414 metadata", async () => {
    const response = await api.call({
      url: '/.well-known/oauth-authorization-server',
      tenant: acme,
      token: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      issuer: BASE_URL,
      token_endpoint: `${BASE_URL}/oauth/token`,
      revocation_endpoint: `${BASE_URL}/oauth/revoke`,
      jwks_uri: `${BASE_URL}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'client_secret_basic',
        'client_secret_post',
      ]) as unknown,
      scopes_supported: expect.arrayContaining(['public', 'private', 'management']) as unknown,
    });
  });

  it('names each tenant as its own issuer', async () => {
    const response = await api.call({
      url: '/.well-known/oauth-authorization-server',
      tenant: globex,
      token: null,
    });
    expect(response.json<{ issuer: string }>().issuer).toBe('http://globex.localhost:8080');
  });

  it('answers 404 for an unknown tenant', async () => {
    const response = await api.call({
      url: '/.well-known/oauth-authorization-server',
      tenant: 'nosuchtenant',
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('TenantNotFound');
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('lists public keys that verify the issued tokens, without private parts', async () => {
    const response = await api.call({ url: '/.well-known/jwks.json', tenant: acme, token: null });
    expect(response.statusCode).toBe(200);
    const jwks = response.json<JSONWebKeySet>();
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        use: 'sig',
        kid: expect.any(String) as unknown,
      });
      expect(key.d).toBeUndefined();
    }
    const token = (
      await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(apps[3]!) })
    ).json<TokenJson>().access_token;
    expect(jwks.keys.map((k) => k.kid)).toContain(decodeProtectedHeader(token).kid);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: BASE_URL,
      audience: BASE_URL,
    });
    expect(payload.sub).toBe(apps[3]!.ApplicationId);
  });
});

describe('a real OAuth client (oauth4webapi) over HTTP', () => {
  let server: TestApi;
  let port: number;

  /** fetch for *.localhost hosts, which do not resolve here: connects to 127.0.0.1 and sends the Host header. */
  const loopbackFetch = async (
    url: string,
    init: {
      method: string;
      headers: Record<string, string>;
      body?: string | URLSearchParams | null;
    },
  ): Promise<Response> => {
    const target = new URL(url);
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    return new Promise<Response>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: init.method,
          headers: { ...init.headers, host: target.host },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            const status = response.statusCode ?? 500;
            resolve(
              new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), {
                status,
                headers,
              }),
            );
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };

  beforeAll(async () => {
    port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    server = await startTestApi({ PUBLIC_PORT: String(port) });
    await server.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  it('discovers the server, gets a token with client_secret_basic and calls the API with it', async () => {
    const tenant = await server.createTenant('acme');
    const issuer = new URL(`http://acme.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };

    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ''));
    expect(as.token_endpoint).toBe(`${issuer.origin}/oauth/token`);

    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(tenant.secret),
      new URLSearchParams(),
      options,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBe(3600);
    expect(result.scope).toBe('public private management');
    expect(decodeJwt(result.access_token).iss).toBe(issuer.origin);

    const apps = await loopbackFetch(`${issuer.origin}/management/oauth/apps`, {
      method: 'GET',
      headers: { authorization: `Bearer ${result.access_token}`, accept: 'application/json' },
    });
    expect(apps.status).toBe(200);
    const list = (await apps.json()) as {
      Results: { ApplicationId: string }[];
      TotalCount: number;
    };
    expect(list.Results.map((a) => a.ApplicationId)).toContain(tenant.appId);

    // The same client revokes its token (RFC 7009); the API refuses it from then on.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        as,
        client,
        oauth.ClientSecretBasic(tenant.secret),
        result.access_token,
        options,
      ),
    );
    const refused = await loopbackFetch(`${issuer.origin}/management/oauth/apps`, {
      method: 'GET',
      headers: { authorization: `Bearer ${result.access_token}`, accept: 'application/json' },
    });
    expect(refused.status).toBe(401);
  });

  it('gets a token with client_secret_post and a narrower scope', async () => {
    const tenant = await server.createTenant('globex');
    const issuer = new URL(`http://globex.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(tenant.secret),
      new URLSearchParams({ scope: 'public private' }),
      options,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result.scope).toBe('public private');
  });

  it('surfaces invalid_client to the client library for a wrong secret', async () => {
    const tenant = await server.createTenant('initech');
    const issuer = new URL(`http://initech.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic('wrong'),
      new URLSearchParams(),
      options,
    );
    // A 401 with a WWW-Authenticate Basic challenge: the library reports the challenge.
    const failure = await oauth.processClientCredentialsResponse(as, client, response).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = failure as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause.map((c) => c.scheme)).toEqual(['basic']);
    expect(((await challenge.response.json()) as { error: string }).error).toBe('invalid_client');
  });
});
