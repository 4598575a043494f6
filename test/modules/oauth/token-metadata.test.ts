// RFC 8414 metadata and the JWKS (contract §3).
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { oauthRequest, type TokenJson } from './oauth-fixtures.ts';
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
      introspection_endpoint: `${BASE_URL}/oauth/introspect`,
      // Confidential clients only: introspection needs an authenticated client (RFC 7662 §2.1).
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      jwks_uri: `${BASE_URL}/.well-known/jwks.json`,
      authorization_endpoint: `${BASE_URL}/oauth/authorize`,
      grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
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
