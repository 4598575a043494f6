// Helpers shared by the oauth module's tests: apps made through the API, and raw token and
// revocation requests (form-encoded, as a client sends them).
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export const FORM = 'application/x-www-form-urlencoded';

/**
 * An access token signed with the server's key but made by hand, for claims the server no longer
 * issues (tokens from before a change) or times it would not give (an expired one).
 */
export async function handMadeAccessToken(
  api: TestApi,
  options: {
    issuer: string;
    subject: string;
    claims: Record<string, unknown>;
    issuedAt?: number;
    expiresAt?: number;
  },
): Promise<string> {
  const { kid, key } = api.services.oauth.tokens.keys.signingKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ver: 1, ...options.claims })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
    .setIssuer(options.issuer)
    .setAudience(options.issuer)
    .setSubject(options.subject)
    .setJti(randomUUID())
    .setIssuedAt(options.issuedAt ?? now)
    .setExpirationTime(options.expiresAt ?? now + 600)
    .sign(key);
}

export interface AppJson {
  ApplicationId: string;
  ApplicationSecret: string | null;
  Name: string;
  Description: string | null;
  IsPredefined: boolean;
  ApplicationTypeId: number;
  ApplicationTypeDescription: string;
  CreatedDate: string;
}

export interface CreatedApp extends AppJson {
  ApplicationSecret: string;
}

export interface TokenJson {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export interface OAuthErrorJson {
  error: string;
  error_description: string;
}

export const SCOPES_BY_TYPE: Record<number, string> = {
  1: 'public',
  2: 'public private',
  3: 'public private management',
  4: 'public',
};

let appsMade = 0;

/**
 * Creates an app through POST /management/oauth/apps with the tenant's bootstrap token. Without
 * a name, one no other app of the run has (the API accepts same-named apps; distinct names only
 * make failures easier to read).
 */
export async function createApp(
  api: TestApi,
  tenant: TestTenant,
  ApplicationTypeId: number,
  Name = `App of type ${ApplicationTypeId} #${++appsMade}`,
): Promise<CreatedApp> {
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name, ApplicationTypeId },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApp>();
}

export interface TokenRequestOptions {
  /** The form fields; sent url-encoded unless `body` is given. */
  form?: Record<string, string>;
  /** A raw body instead of the form. */
  body?: string;
  contentType?: string;
  authorization?: string;
  remoteAddress?: string;
  url?: string;
}

/** POST /oauth/token (or another OAuth endpoint through `url`) on the tenant's host. */
export function oauthRequest(
  api: TestApi,
  tenant: TestTenant | string,
  options: TokenRequestOptions,
): Promise<LightMyRequestResponse> {
  const host = typeof tenant === 'string' ? `${tenant}.${api.config.apiHost}` : tenant.host;
  return api.app.inject({
    method: 'POST',
    url: options.url ?? '/oauth/token',
    headers: {
      host,
      'content-type': options.contentType ?? FORM,
      ...(options.authorization !== undefined ? { authorization: options.authorization } : {}),
    },
    payload: options.body ?? new URLSearchParams(options.form ?? {}).toString(),
    ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** Asserts the RFC 6749 §5.2 error body (and that it is not the API's error body); returns it. */
export function oauthError(
  response: LightMyRequestResponse,
  status: number,
  error: string,
): OAuthErrorJson {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<OAuthErrorJson & { Code?: unknown; IdentifierGuid?: unknown }>();
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(response.headers['cache-control']).toBe('no-store');
  return body;
}

/** Asserts a 401 with the Bearer invalid_token challenge and the API's error body. */
export function expectInvalidToken(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  expect(response.json<{ Code: string }>().Code).toBe('InvalidToken');
}

/**
 * Asserts a 401 to a request that brought no bearer token: the challenge names the tenant's realm
 * and no error code (RFC 6750 §3.1); the body is the API's error body all the same.
 */
export function expectCredentialsRequired(
  response: LightMyRequestResponse,
  baseUrl = 'http://acme.localhost:8080',
): void {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.headers['www-authenticate']).toBe(`Bearer realm="${baseUrl}"`);
  expect(response.json<{ Code: string }>().Code).toBe('InvalidToken');
}

/**
 * A fetch for oauth4webapi's `customFetch` that sends each request into the app (inject), with
 * the URL's host as Host: `*.localhost` tenant hosts need no listening socket or name lookup.
 */
export function injectFetch(api: TestApi) {
  return async (
    url: string,
    init: {
      method: string;
      headers: Record<string, string>;
      body?: string | URLSearchParams | null;
    },
  ): Promise<Response> => {
    const target = new URL(url);
    const answer = await api.app.inject({
      method: init.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { ...init.headers, host: target.host },
      ...(init.body === undefined || init.body === null ? {} : { payload: String(init.body) }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      for (const v of [value ?? []].flat()) headers.append(name, String(v));
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers,
    });
  };
}
