// Helpers of the members module's tests: members made through the API, and the console's
// browser sign-in done as a browser and the console would (authorization code with PKCE).
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export const FORM = 'application/x-www-form-urlencoded';
export const GOOD_PASSWORD = 'violet-Harbor-lamp-92';

export interface MemberJson {
  Id: string;
  Username: string;
  Name: string;
  Email: string | null;
  Roles: { Id: string; Description: string }[];
}

export interface SessionJson {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export function hostOf(api: TestApi, tenant: TestTenant | string): string {
  return typeof tenant === 'string' ? `${tenant}.${api.config.apiHost}` : tenant.host;
}

export function baseUrlOf(api: TestApi, tenant: TestTenant | string): string {
  return `http://${hostOf(api, tenant)}:${api.config.publicPort}`;
}

/** Creates a member through POST /management/security/members with the tenant's app token. */
export async function createMember(
  api: TestApi,
  tenant: TestTenant,
  username: string,
  roles: string[],
  password = GOOD_PASSWORD,
  extra: Record<string, unknown> = {},
): Promise<MemberJson> {
  const response = await api.call({
    method: 'POST',
    url: '/management/security/members',
    tenant,
    body: {
      Username: username,
      Name: `Name of ${username}`,
      Password: password,
      Roles: roles.map((Id) => ({ Id })),
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<MemberJson>();
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
}

export function authorizeParams(
  api: TestApi,
  tenant: TestTenant | string,
  pkce: Pkce,
): Required<AuthorizeParams> {
  return {
    response_type: 'code',
    client_id: 'console',
    redirect_uri: `${baseUrlOf(api, tenant)}/console/callback`,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  };
}

export function getAuthorize(
  api: TestApi,
  tenant: TestTenant | string,
  params: AuthorizeParams,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams(params as Record<string, string>).toString();
  return api.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${query}`,
    headers: { host: hostOf(api, tenant), accept: 'text/html', ...headers },
  });
}

/** The sign-in page's CSRF token (hidden field) and cookie. */
export function formOf(page: LightMyRequestResponse): {
  csrf: string;
  cookie: string;
  ticket?: string;
} {
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  const setCookie = page.headers['set-cookie'];
  const cookieLine = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  expect(csrf, page.body).toBeDefined();
  expect(cookieLine).toBeDefined();
  const ticket = /name="password_change_ticket" value="([^"]+)"/.exec(page.body)?.[1];
  return { csrf: csrf!, cookie: cookieLine!.split(';')[0]!, ...(ticket ? { ticket } : {}) };
}

export function postAuthorize(
  api: TestApi,
  tenant: TestTenant | string,
  fields: Record<string, string>,
  cookie: string | undefined,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: {
      host: hostOf(api, tenant),
      'content-type': FORM,
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** Signs in through the page: GET, then POST the form with its cookie. Answers the POST. */
export async function submitSignIn(
  api: TestApi,
  tenant: TestTenant | string,
  username: string,
  password: string,
  pkce: Pkce = newPkce(),
  remoteAddress?: string,
): Promise<{ response: LightMyRequestResponse; params: Required<AuthorizeParams>; pkce: Pkce }> {
  const params = authorizeParams(api, tenant, pkce);
  const page = await getAuthorize(api, tenant, params);
  expect(page.statusCode, page.body).toBe(200);
  const { csrf, cookie } = formOf(page);
  const response = await postAuthorize(
    api,
    tenant,
    { ...params, csrf_token: csrf, username, password },
    cookie,
    remoteAddress,
  );
  return { response, params, pkce };
}

/** The code from a successful sign-in's redirect (and checks state came back). */
export function codeOf(response: LightMyRequestResponse, params: AuthorizeParams): string {
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(params.redirect_uri);
  expect(location.searchParams.get('state')).toBe(params.state);
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

export function tokenRequest(
  api: TestApi,
  tenant: TestTenant | string,
  form: Record<string, string>,
  url = '/oauth/token',
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'POST',
    url,
    headers: { host: hostOf(api, tenant), 'content-type': FORM },
    payload: new URLSearchParams(form).toString(),
  });
}

export function exchangeCode(
  api: TestApi,
  tenant: TestTenant | string,
  code: string,
  params: AuthorizeParams,
  verifier: string,
): Promise<LightMyRequestResponse> {
  return tokenRequest(api, tenant, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: params.redirect_uri!,
    client_id: 'console',
    code_verifier: verifier,
  });
}

/** Signs a member in all the way and answers its tokens. */
export async function signIn(
  api: TestApi,
  tenant: TestTenant | string,
  username: string,
  password = GOOD_PASSWORD,
): Promise<SessionJson> {
  const { response, params, pkce } = await submitSignIn(api, tenant, username, password);
  const code = codeOf(response, params);
  const tokens = await exchangeCode(api, tenant, code, params, pkce.verifier);
  expect(tokens.statusCode, tokens.body).toBe(200);
  return tokens.json<SessionJson>();
}

export function refresh(
  api: TestApi,
  tenant: TestTenant | string,
  refreshToken: string,
): Promise<LightMyRequestResponse> {
  return tokenRequest(api, tenant, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: 'console',
  });
}

export const INVITATIONS = '/management/security/members/invitations';

export interface InvitationJson {
  Id: string;
  Email: string;
  Name: string | null;
  Roles: { Id: string; Description: string }[];
  InvitedBy: string | null;
  CreatedDate: string;
  SentDate: string;
  ExpirationDate: string;
  IsExpired: boolean;
  /** Only in the answers of inviting and sending again. */
  InvitationLink?: string;
  EmailSent?: boolean;
}

/** Invites an address through POST …/members/invitations (the tenant's app token by default). */
export async function invite(
  api: TestApi,
  tenant: TestTenant,
  email: string,
  roles: string[] = ['analyst'],
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<InvitationJson> {
  const response = await api.call({
    method: 'POST',
    url: INVITATIONS,
    tenant,
    body: { Email: email, Roles: roles.map((Id) => ({ Id })), ...extra },
    ...(token ? { token } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<InvitationJson>();
}

/** The invitation e-mails in the tenant's outbox to an address, oldest first. */
export async function invitationMails(api: TestApi, tenant: TestTenant | string, to: string) {
  const name = typeof tenant === 'string' ? tenant : tenant.name;
  const tenantId = (await api.services.tenants.findByName(name))!.id;
  const records = await api.services.outbox.records(tenantId);
  return records.filter((r) => r.recipient === to && /invitation/i.test(r.subject));
}

/** The link of the newest invitation e-mail to an address (its URL, with the token). */
export async function invitationLink(
  api: TestApi,
  tenant: TestTenant | string,
  to: string,
): Promise<URL> {
  const mails = await invitationMails(api, tenant, to);
  const body = mails.at(-1)?.body ?? '';
  const link = /(https?:\/\/\S+\/oauth\/invitation\?token=[\w-]+)/.exec(body)?.[1];
  expect(link, `an invitation e-mail to ${to}: ${body}`).toBeDefined();
  return new URL(link!);
}

/** GET /oauth/invitation?token=… (the page the e-mail's link opens). */
export function openInvitation(
  api: TestApi,
  tenant: TestTenant | string,
  token: string,
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'GET',
    url: `/oauth/invitation?${new URLSearchParams({ token }).toString()}`,
    headers: { host: hostOf(api, tenant), accept: 'text/html' },
  });
}

/** POST /oauth/invitation: the invitation page's form. */
export function acceptInvitation(
  api: TestApi,
  tenant: TestTenant | string,
  fields: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'POST',
    url: '/oauth/invitation',
    headers: { host: hostOf(api, tenant), 'content-type': FORM, accept: 'text/html' },
    payload: new URLSearchParams(fields).toString(),
  });
}
