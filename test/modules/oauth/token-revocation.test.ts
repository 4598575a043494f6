// Bearer tokens at the API (contract §3): revocation, and signing key rotation.
import { decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../../support/test-api.ts';
import { expectInvalidToken, oauthError, oauthRequest } from './oauth-fixtures.ts';
import {
  useTokenEnforcementApi,
  api,
  acme,
  globex,
  APPS,
  appWithToken,
  listApps,
  revoke,
  craftToken,
  now,
} from './token-enforcement-fixtures.ts';

useTokenEnforcementApi();

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

  it('answers 400 invalid_request without the token parameter, 415 to a JSON body', async () => {
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
      415,
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
