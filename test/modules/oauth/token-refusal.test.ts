// Bearer tokens at the API (contract §3): every way a token is refused with 401 invalid_token —
// another tenant, deletion, secret rotation, expiry, forgery.
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { expectCredentialsRequired, expectInvalidToken } from './oauth-fixtures.ts';
import {
  useTokenEnforcementApi,
  api,
  acme,
  globex,
  APPS,
  BASE_URL,
  appWithToken,
  listApps,
  craftToken,
  now,
} from './token-enforcement-fixtures.ts';

useTokenEnforcementApi();

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
    // The wall clock stands still (Date only: timers and I/O run on), so that however slow the
    // machine, the token is used before it expires, then the clock moves past its expiry while
    // the token is still in the cache (whose own timing does not follow Date).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const shortLived = await craftToken(app, { iat: now() - 10, exp: now() + 2 });
      expect((await listApps(shortLived)).statusCode).toBe(200);
      const tenant = { id: (await api.services.tenants.findByName('acme'))!.id, baseUrl: BASE_URL };
      expect(api.services.oauth.tokens.verifyCached(shortLived, tenant)).toBeDefined();
      vi.setSystemTime(Date.now() + 2_100);
      const response = await listApps(shortLived);
      expectInvalidToken(response);
      expect(response.headers['www-authenticate']).toContain('expired');
    } finally {
      vi.useRealTimers();
    }
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
    ['an empty Bearer', 'Bearer '],
    ['a Bearer token with characters a token cannot have', 'Bearer a"b'],
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

describe('requests without a bearer token (RFC 6750 §3.1)', () => {
  it('answers no Authorization with a realm and no error code, in the API error body', async () => {
    const response = await api.call({ url: APPS, tenant: acme, token: null });
    expectCredentialsRequired(response);
    expect(errorBody(response).FriendlyDescription).toContain('access token is required');
  });

  it.each([
    ['Basic credentials', 'Basic eHl6Onh5eg=='],
    ['a bare token without scheme', 'eyJhbGciOiJFUzI1NiJ9.e30.sig'],
    ['another scheme whose name starts like Bearer', 'BearerToken abc'],
  ])('answers %s, an unsupported method, the same way', async (_case, authorization) => {
    const response = await api.call({
      url: APPS,
      tenant: acme,
      token: null,
      headers: { authorization },
    });
    expectCredentialsRequired(response);
    errorBody(response);
  });

  it("names each tenant's own base URL as the realm", async () => {
    const response = await api.call({ url: APPS, tenant: globex, token: null });
    expectCredentialsRequired(response, 'http://globex.localhost:8080');
  });

  it('keeps error="insufficient_scope" for a valid token without the scope', async () => {
    const { token } = await appWithToken(2);
    const response = await listApps(token);
    expect(response.statusCode).toBe(403);
    expect(errorBody(response).Code).toBe('InsufficientScope');
    expect(response.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="management"',
    );
  });
});
