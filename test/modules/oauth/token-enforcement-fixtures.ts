// Shared setup of the token-enforcement tests (split by behaviour): the server, tenants and request helpers.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll } from 'vitest';
import { basicAuth, startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { createApp, oauthRequest, SCOPES_BY_TYPE, type CreatedApp } from './oauth-fixtures.ts';

export let api: TestApi;
export let acme: TestTenant;
export let globex: TestTenant;

export const APPS = '/management/oauth/apps';
export const BASE_URL = 'http://acme.localhost:8080';

export async function appWithToken(
  type = 3,
  scope?: string,
): Promise<{ app: CreatedApp; token: string }> {
  const app = await createApp(api, acme, type);
  return {
    app,
    token: await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret, scope),
  };
}

export const listApps = (token: string, tenant: TestTenant = acme, on: FastifyInstance = api.app) =>
  on.inject({
    method: 'GET',
    url: APPS,
    headers: {
      host: tenant.host,
      accept: 'application/vnd.xomni.api-v4-0',
      authorization: `Bearer ${token}`,
    },
  });

export function revoke(app: CreatedApp, token: string, tenant: TestTenant = acme) {
  return oauthRequest(api, tenant, {
    url: '/oauth/revoke',
    form: { token },
    authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
  });
}

/** A token signed with the server's current key, with the claims the server issues; overrides apply. */
export async function craftToken(
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

export const now = () => Math.floor(Date.now() / 1000);

/** Registers the file's server: started before its tests, closed after. */
export function useTokenEnforcementApi(): void {
  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
    globex = await api.createTenant('globex');
  });
  afterAll(() => api.close());
}
