// The console's redirect URIs (the only OAuth client with redirects; apps use client_credentials
// and register none) are compared exactly with the two console addresses under the tenant's base
// URL, so javascript:, data:, vbscript: and file: URIs (and every other scheme) are refused: by the
// authorization endpoint before anything is redirected, and by the token endpoint, which only
// takes the redirect URI the code was issued for.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  authorizeParams,
  codeOf,
  createMember,
  exchangeCode,
  formOf,
  getAuthorize,
  GOOD_PASSWORD,
  newPkce,
  postAuthorize,
  submitSignIn,
} from '../members/members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

beforeAll(async () => {
  await createMember(api, acme, 'alice', ['owner']);
});

const HOSTILE = [
  'javascript:alert(document.cookie)',
  'JAVASCRIPT:alert(1)//http://acme.localhost:8080/console/callback',
  'javascript://acme.localhost:8080/console/callback%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'file://acme.localhost:8080/console/callback',
];

describe('GET /oauth/authorize: redirect_uri schemes', () => {
  it.each(HOSTILE)('answers %j with a 400 page and no redirect', async (uri) => {
    const params = { ...authorizeParams(api, acme, newPkce()), redirect_uri: uri };
    const response = await getAuthorize(api, acme, params);
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).not.toContain(uri);
  });
});

describe('POST /oauth/authorize: redirect_uri schemes', () => {
  it.each(HOSTILE)('signs in with %j: a 400 page, no redirect, no code', async (uri) => {
    const params = authorizeParams(api, acme, newPkce());
    const { csrf, cookie } = formOf(await getAuthorize(api, acme, params));
    const response = await postAuthorize(
      api,
      acme,
      {
        ...params,
        redirect_uri: uri,
        csrf_token: csrf,
        username: 'alice',
        password: GOOD_PASSWORD,
      },
      cookie,
    );
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });
});

describe('POST /oauth/token (authorization_code): redirect_uri schemes', () => {
  it('refuses a code with any redirect_uri but the one it was issued for', async () => {
    const { response, params, pkce } = await submitSignIn(api, acme, 'alice', GOOD_PASSWORD);
    const code = codeOf(response, params);
    for (const uri of HOSTILE.slice(0, 3)) {
      const refused = await exchangeCode(
        api,
        acme,
        code,
        { ...params, redirect_uri: uri },
        pkce.verifier,
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: string }>().error).toBe('invalid_grant');
    }
  });
});
