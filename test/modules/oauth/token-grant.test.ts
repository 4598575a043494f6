// POST /oauth/token (RFC 6749 client credentials, contract §3).
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { basicAuth, errorBody } from '../../support/test-api.ts';
import { oauthError, oauthRequest, SCOPES_BY_TYPE, type TokenJson } from './oauth-fixtures.ts';
import {
  useTokenEndpointApi,
  api,
  acme,
  globex,
  apps,
  BASE_URL,
  CLIENT_CREDENTIALS,
  basic,
} from './token-endpoint-fixtures.ts';

useTokenEndpointApi();

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

  it.each(['authorization_code', 'refresh_token'])(
    'answers 400 invalid_request for grant_type=%s from a confidential app (only the console uses it)',
    async (grant) => {
      oauthError(
        await oauthRequest(api, acme, {
          form: { grant_type: grant },
          authorization: basic(apps[3]!),
        }),
        400,
        'invalid_request',
      );
    },
  );

  it.each(['password', 'implicit', ''])(
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

  it('answers 415 invalid_request for a JSON body, unread', async () => {
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
      oauthError(response, 415, 'invalid_request');
    }
  });

  it('answers 415 invalid_request for a body of another content type', async () => {
    const response = await oauthRequest(api, acme, {
      body: 'grant_type=client_credentials',
      contentType: 'text/plain',
      authorization: basic(apps[3]!),
    });
    oauthError(response, 415, 'invalid_request');
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
