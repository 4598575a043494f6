// The console's browser sign-in from end to end: the page, the code, the tokens, their use on
// the API, refresh with rotation, and sign-out.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  authorizeParams,
  codeOf,
  createMember,
  exchangeCode,
  getAuthorize,
  newPkce,
  refresh,
  signIn,
  submitSignIn,
  tokenRequest,
} from './members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

beforeAll(async () => {
  await createMember(api, acme, 'olivia', ['owner']);
});

describe('GET /oauth/authorize', () => {
  it('answers the sign-in page with a CSRF field, its cookie and a strict CSP', async () => {
    const page = await getAuthorize(api, acme, authorizeParams(api, acme, newPkce()));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('name="csrf_token"');
    expect(page.body).toContain('name="password"');
    expect(page.body).not.toMatch(/<script|src="http/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(page.headers['cache-control']).toBe('no-store');
  });
});

describe('signing in, using, refreshing and revoking', () => {
  it('issues tokens that work on the API, rotates refresh tokens, and signs out', async () => {
    const tokens = await signIn(api, acme, 'olivia');
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(api.config.tokenTtlSeconds);
    expect(tokens.refresh_token.length).toBeGreaterThanOrEqual(43);

    const members = await api.call({
      url: '/management/security/members',
      tenant: acme,
      token: tokens.access_token,
    });
    expect(members.statusCode, members.body).toBe(200);

    const next = await refresh(api, acme, tokens.refresh_token);
    expect(next.statusCode, next.body).toBe(200);
    const rotated = next.json<{ access_token: string; refresh_token: string }>();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

    const out = await tokenRequest(
      api,
      acme,
      { token: rotated.refresh_token, client_id: 'console' },
      '/oauth/revoke',
    );
    expect(out.statusCode, out.body).toBe(200);
    const after = await api.call({
      url: '/management/security/members',
      tenant: acme,
      token: rotated.access_token,
    });
    expect(after.statusCode).toBe(401);
    expect((await refresh(api, acme, rotated.refresh_token)).statusCode).toBe(400);
  });

  it('sends the code back to the redirect URI with the state', async () => {
    const { response, params, pkce } = await submitSignIn(
      api,
      acme,
      'olivia',
      'violet-Harbor-lamp-92',
    );
    const code = codeOf(response, params);
    const exchanged = await exchangeCode(api, acme, code, params, pkce.verifier);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
  });
});
