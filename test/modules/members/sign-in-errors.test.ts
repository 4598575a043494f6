// Every way a browser sign-in can fail: at the page (client, redirect URI, CSRF), at the
// credentials (wrong password, unknown user, lockout per username and per address), at the token
// endpoint (PKCE mismatch, code reuse, redirect URI mismatch, reused refresh token), and across
// tenants (a member of A on B's host, A's code and refresh token at B).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, startTestApi } from '../../support/test-api.ts';
import { oauthError } from '../oauth/oauth-fixtures.ts';
import {
  GOOD_PASSWORD,
  authorizeParams,
  codeOf,
  createMember,
  exchangeCode,
  formOf,
  getAuthorize,
  newPkce,
  postAuthorize,
  refresh,
  signIn,
  submitSignIn,
  tokenRequest,
} from './members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

beforeAll(async () => {
  await createMember(api, acme, 'alice', ['owner']);
});

const redirected = (location: unknown) => new URL(String(location));

describe('GET /oauth/authorize: errors before the redirect URI is trusted are shown on the page', () => {
  it.each([
    ['an unknown client', { client_id: 'evil' }],
    ['a redirect URI elsewhere', { redirect_uri: 'https://evil.example/console/callback' }],
    ['a redirect URI of another tenant', { redirect_uri: 'http://globex.localhost:8080/console/' }],
    [
      'a redirect URI that only starts like one',
      { redirect_uri: 'http://acme.localhost:8080/console/callback/x' },
    ],
    ['no redirect URI', { redirect_uri: '' }],
  ])('answers a 400 page, no redirect, for %s', async (_case, change) => {
    const params = { ...authorizeParams(api, acme, newPkce()), ...change };
    const response = await getAuthorize(api, acme, params);
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('class="error"');
  });
});

describe('GET /oauth/authorize: errors after it go back to the client (RFC 6749 §4.1.2.1)', () => {
  it.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE method', { code_challenge_method: '' }, 'invalid_request'],
    ['no code challenge', { code_challenge: '' }, 'invalid_request'],
    ['a malformed code challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['an empty response_type (as if omitted)', { response_type: '' }, 'invalid_request'],
  ])('redirects with error for %s, keeping state', async (_case, change, error) => {
    const params = { ...authorizeParams(api, acme, newPkce()), ...change };
    if (params.response_type === undefined) delete params.response_type;
    const response = await getAuthorize(api, acme, params);
    expect(response.statusCode).toBe(302);
    const location = redirected(response.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(params.redirect_uri);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe(params.state);
    expect(location.searchParams.get('code')).toBeNull();
  });
});

/** GET /oauth/authorize with a query built by hand (parameters may repeat). */
function getAuthorizeQuery(query: URLSearchParams) {
  return api.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${query.toString()}`,
    headers: { host: acme.host, accept: 'text/html' },
  });
}

describe('GET /oauth/authorize: a parameter given twice (RFC 6749 §3.1, §4.1.2.1)', () => {
  it.each(['response_type', 'code_challenge', 'code_challenge_method'])(
    'redirects a repeated %s with invalid_request, keeping state',
    async (name) => {
      const params = authorizeParams(api, acme, newPkce());
      const query = new URLSearchParams(params);
      query.append(name, params[name as keyof typeof params]);
      const response = await getAuthorizeQuery(query);
      expect(response.statusCode, response.body).toBe(302);
      const location = redirected(response.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe(params.redirect_uri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toContain(name);
      expect(location.searchParams.get('state')).toBe(params.state);
      expect(location.searchParams.get('code')).toBeNull();
    },
  );

  it('redirects a repeated state with invalid_request and no state (which one?)', async () => {
    const params = authorizeParams(api, acme, newPkce());
    const query = new URLSearchParams(params);
    query.append('state', 'another');
    const response = await getAuthorizeQuery(query);
    expect(response.statusCode).toBe(302);
    const location = redirected(response.headers.location);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.has('state')).toBe(false);
  });

  it.each(['client_id', 'redirect_uri'])(
    'shows a repeated %s on a 400 page, never redirected',
    async (name) => {
      const params = authorizeParams(api, acme, newPkce());
      const query = new URLSearchParams(params);
      query.append(name, params[name as keyof typeof params]);
      const response = await getAuthorizeQuery(query);
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(`${name} is given more than once`);
    },
  );

  it('ignores a parameter it does not know (RFC 6749 §3.1)', async () => {
    const query = new URLSearchParams(authorizeParams(api, acme, newPkce()));
    query.append('prompt', 'login');
    query.append('nonce', 'n-0S6_WzA2Mj');
    const response = await getAuthorizeQuery(query);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('name="csrf_token"');
  });
});

describe('POST /oauth/authorize: a parameter given twice', () => {
  it('redirects with invalid_request and issues no code, whatever the credentials', async () => {
    const params = authorizeParams(api, acme, newPkce());
    const { csrf, cookie } = formOf(await getAuthorize(api, acme, params));
    const form = new URLSearchParams({
      ...params,
      csrf_token: csrf,
      username: 'alice',
      password: GOOD_PASSWORD,
    });
    form.append('code_challenge', newPkce().challenge);
    const response = await api.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      headers: { host: acme.host, 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: form.toString(),
    });
    expect(response.statusCode).toBe(302);
    const location = redirected(response.headers.location);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('POST /oauth/authorize: CSRF', () => {
  it('answers 403 without the cookie, with a fresh form', async () => {
    const params = authorizeParams(api, acme, newPkce());
    const { csrf } = formOf(await getAuthorize(api, acme, params));
    const response = await postAuthorize(
      api,
      acme,
      { ...params, csrf_token: csrf, username: 'alice', password: GOOD_PASSWORD },
      undefined,
    );
    expect(response.statusCode).toBe(403);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('name="csrf_token"');
  });

  it('answers 403 when the cookie is of another page', async () => {
    const params = authorizeParams(api, acme, newPkce());
    const { csrf } = formOf(await getAuthorize(api, acme, params));
    const { cookie } = formOf(await getAuthorize(api, acme, params));
    const response = await postAuthorize(
      api,
      acme,
      { ...params, csrf_token: csrf, username: 'alice', password: GOOD_PASSWORD },
      cookie,
    );
    expect(response.statusCode).toBe(403);
  });

  it('answers 403 without the token, or with a forged one', async () => {
    const params = authorizeParams(api, acme, newPkce());
    const { cookie } = formOf(await getAuthorize(api, acme, params));
    const nonce = cookie.split('=')[1]!;
    for (const csrf of [undefined, nonce, 'eyJhbGciOiJub25lIn0.eyJuIjoiYSJ9.']) {
      const response = await postAuthorize(
        api,
        acme,
        {
          ...params,
          ...(csrf ? { csrf_token: csrf } : {}),
          username: 'alice',
          password: GOOD_PASSWORD,
        },
        cookie,
      );
      expect(response.statusCode).toBe(403);
    }
  });

  it("answers 403 for a form of another tenant's page", async () => {
    const params = authorizeParams(api, globex, newPkce());
    const { csrf, cookie } = formOf(await getAuthorize(api, globex, params));
    const response = await postAuthorize(
      api,
      acme,
      {
        ...authorizeParams(api, acme, newPkce()),
        csrf_token: csrf,
        username: 'alice',
        password: GOOD_PASSWORD,
      },
      cookie,
    );
    expect(response.statusCode).toBe(403);
  });

  it('marks the cookie Secure when the server is reached over https', async () => {
    const https = await startTestApi({ PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443' });
    try {
      await https.createTenant('secure');
      const page = await getAuthorize(https, 'secure', {
        ...authorizeParams(https, 'secure', newPkce()),
        redirect_uri: 'https://secure.localhost/console/',
      });
      expect(page.statusCode, page.body).toBe(200);
      expect(String(page.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});

describe('POST /oauth/authorize: credentials', () => {
  it('answers 401 with the page again for a wrong password, and no code', async () => {
    const { response } = await submitSignIn(api, acme, 'alice', 'not-the-Right-one-7');
    expect(response.statusCode).toBe(401);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('Wrong username or password.');
    expect(response.body).toContain('value="alice"');
  });

  it('answers an unknown username exactly like a wrong password', async () => {
    const { response } = await submitSignIn(api, acme, 'nobody-here', 'not-the-Right-one-7');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('Wrong username or password.');
  });

  it('locks a username after 5 failures: the right password is refused too, 429 with Retry-After', async () => {
    await createMember(api, acme, 'bruteforced', ['analyst']);
    for (let i = 0; i < 5; i++) {
      const { response } = await submitSignIn(
        api,
        acme,
        'bruteforced',
        `wrong-Guess-${i}x`,
        undefined,
        `10.0.0.${i}`,
      );
      expect(response.statusCode).toBe(401);
    }
    const { response } = await submitSignIn(
      api,
      acme,
      'bruteforced',
      GOOD_PASSWORD,
      undefined,
      '10.9.9.9',
    );
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(800);
    expect(response.body).toContain('Too many failed sign-ins');
    expect(response.headers.location).toBeUndefined();
  });

  it('locks an unknown username the same way (the answer does not tell it does not exist)', async () => {
    for (let i = 0; i < 5; i++)
      await submitSignIn(api, acme, 'ghost', `wrong-Guess-${i}x`, undefined, `10.1.0.${i}`);
    const { response } = await submitSignIn(
      api,
      acme,
      'ghost',
      GOOD_PASSWORD,
      undefined,
      '10.1.9.9',
    );
    expect(response.statusCode).toBe(429);
    expect(response.body).toContain('Too many failed sign-ins');
  });

  it('locks a client address after 20 failures, whatever usernames it tries', async () => {
    await createMember(api, acme, 'innocent', ['analyst']);
    for (let i = 0; i < 20; i++)
      await submitSignIn(api, acme, `spray-${i}`, 'wrong-Guess-abc1', undefined, '192.0.2.7');
    const blocked = await submitSignIn(
      api,
      acme,
      'innocent',
      GOOD_PASSWORD,
      undefined,
      '192.0.2.7',
    );
    expect(blocked.response.statusCode).toBe(429);
    const elsewhere = await submitSignIn(
      api,
      acme,
      'innocent',
      GOOD_PASSWORD,
      undefined,
      '192.0.2.8',
    );
    expect(elsewhere.response.statusCode).toBe(302);
  });

  it('does not lock other tenants: the same username elsewhere signs in', async () => {
    await createMember(api, globex, 'bruteforced', ['analyst']);
    const tokens = await signIn(api, globex, 'bruteforced');
    expect(tokens.access_token).toBeTruthy();
  });
});

describe('cross-tenant sign-in', () => {
  it("refuses a member of A on B's host like an unknown user", async () => {
    const { response } = await submitSignIn(api, globex, 'alice', GOOD_PASSWORD);
    expect(response.statusCode).toBe(401);
  });

  it("refuses A's code at B's token endpoint, and A's refresh token at B", async () => {
    const { response, params, pkce } = await submitSignIn(api, acme, 'alice', GOOD_PASSWORD);
    const code = codeOf(response, params);
    oauthError(await exchangeCode(api, globex, code, params, pkce.verifier), 400, 'invalid_grant');
    oauthError(
      await exchangeCode(
        api,
        globex,
        code,
        { ...params, redirect_uri: 'http://globex.localhost:8080/console/callback' },
        pkce.verifier,
      ),
      400,
      'invalid_grant',
    );
    const tokens = await signIn(api, acme, 'alice');
    oauthError(await refresh(api, globex, tokens.refresh_token), 400, 'invalid_grant');
    const onB = await api.call({
      url: '/management/security/members',
      tenant: globex,
      token: tokens.access_token,
    });
    expect(onB.statusCode).toBe(401);
    // A's tokens still work on A.
    expect((await refresh(api, acme, tokens.refresh_token)).statusCode).toBe(200);
  });
});

describe('POST /oauth/token grant_type=authorization_code', () => {
  it('answers invalid_grant for a PKCE mismatch, and the code is spent by it', async () => {
    const { response, params, pkce } = await submitSignIn(api, acme, 'alice', GOOD_PASSWORD);
    const code = codeOf(response, params);
    const error = oauthError(
      await exchangeCode(api, acme, code, params, newPkce().verifier),
      400,
      'invalid_grant',
    );
    expect(error.error_description).toContain('code_verifier');
    oauthError(await exchangeCode(api, acme, code, params, pkce.verifier), 400, 'invalid_grant');
  });

  it('answers invalid_grant for another redirect_uri than the request’s', async () => {
    const { response, params, pkce } = await submitSignIn(api, acme, 'alice', GOOD_PASSWORD);
    const code = codeOf(response, params);
    oauthError(
      await exchangeCode(
        api,
        acme,
        code,
        { ...params, redirect_uri: 'http://acme.localhost:8080/console/' },
        pkce.verifier,
      ),
      400,
      'invalid_grant',
    );
  });

  it('answers invalid_grant to a second use of a code, and revokes what the first got', async () => {
    const { response, params, pkce } = await submitSignIn(api, acme, 'alice', GOOD_PASSWORD);
    const code = codeOf(response, params);
    const first = await exchangeCode(api, acme, code, params, pkce.verifier);
    expect(first.statusCode).toBe(200);
    const tokens = first.json<{ access_token: string; refresh_token: string }>();
    oauthError(await exchangeCode(api, acme, code, params, pkce.verifier), 400, 'invalid_grant');
    const use = await api.call({
      url: '/management/security/roles',
      tenant: acme,
      token: tokens.access_token,
    });
    expect(use.statusCode).toBe(401);
    oauthError(await refresh(api, acme, tokens.refresh_token), 400, 'invalid_grant');
  });

  it('answers invalid_grant for an unknown code', async () => {
    const params = authorizeParams(api, acme, newPkce());
    oauthError(
      await exchangeCode(api, acme, 'no-such-code', params, newPkce().verifier),
      400,
      'invalid_grant',
    );
  });

  it.each([
    ['no code', { code: '' }, 'invalid_request'],
    ['no code_verifier', { code_verifier: '' }, 'invalid_request'],
    ['another client', { client_id: 'other' }, 'invalid_client'],
  ])('answers %s with %s', async (_case, change, error) => {
    const params = authorizeParams(api, acme, newPkce());
    const response = await tokenRequest(api, acme, {
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: params.redirect_uri,
      client_id: 'console',
      code_verifier: newPkce().verifier,
      ...change,
    });
    oauthError(response, error === 'invalid_client' ? 401 : 400, error);
  });
});

describe('POST /oauth/token grant_type=refresh_token', () => {
  it('revokes the whole family when a spent refresh token comes back (reuse detection)', async () => {
    const first = await signIn(api, acme, 'alice');
    const second = (await refresh(api, acme, first.refresh_token)).json<{
      access_token: string;
      refresh_token: string;
    }>();
    const reuse = oauthError(await refresh(api, acme, first.refresh_token), 400, 'invalid_grant');
    expect(reuse.error_description).toContain('used before');
    // The thief's and the rightful holder's newest tokens both stop working.
    oauthError(await refresh(api, acme, second.refresh_token), 400, 'invalid_grant');
    for (const token of [first.access_token, second.access_token]) {
      const use = await api.call({ url: '/management/security/roles', tenant: acme, token });
      expect(use.statusCode).toBe(401);
    }
    // Another sign-in of the same member is its own family and goes on.
    const other = await signIn(api, acme, 'alice');
    expect((await refresh(api, acme, other.refresh_token)).statusCode).toBe(200);
  });

  it('answers invalid_grant for an unknown refresh token, invalid_request without one', async () => {
    oauthError(await refresh(api, acme, 'unknown'), 400, 'invalid_grant');
    oauthError(
      await tokenRequest(api, acme, { grant_type: 'refresh_token', client_id: 'console' }),
      400,
      'invalid_request',
    );
  });
});

describe('POST /oauth/revoke (sign-out)', () => {
  it('revokes the session from its access token too', async () => {
    const tokens = await signIn(api, acme, 'alice');
    const out = await tokenRequest(
      api,
      acme,
      { token: tokens.access_token, client_id: 'console' },
      '/oauth/revoke',
    );
    expect(out.statusCode).toBe(200);
    const use = await api.call({
      url: '/management/security/roles',
      tenant: acme,
      token: tokens.access_token,
    });
    expect(use.statusCode).toBe(401);
    oauthError(await refresh(api, acme, tokens.refresh_token), 400, 'invalid_grant');
  });

  it('answers 200 for an unknown token', async () => {
    const out = await tokenRequest(
      api,
      acme,
      { token: 'nothing', client_id: 'console' },
      '/oauth/revoke',
    );
    expect(out.statusCode).toBe(200);
  });

  it("answers 400 unauthorized_client for an app's token sent by the console", async () => {
    const out = await tokenRequest(
      api,
      acme,
      { token: acme.token, client_id: 'console' },
      '/oauth/revoke',
    );
    oauthError(out, 400, 'unauthorized_client');
  });
});

describe('the one-time password of a new tenant’s owner', () => {
  it('must be changed at the first sign-in, then the new one signs in', async () => {
    const created = await api.services.tenants.create('fresh');
    const { Username, Password } = created.owner;
    const { response, params } = await submitSignIn(api, 'fresh', Username, Password);
    expect(response.statusCode).toBe(200);
    const form = formOf(response);
    expect(form.ticket).toBeDefined();
    const post = (fields: Record<string, string>) =>
      postAuthorize(
        api,
        'fresh',
        { ...params, csrf_token: form.csrf, password_change_ticket: form.ticket!, ...fields },
        form.cookie,
      );
    const differ = await post({ new_password: 'Brand-new-pass-42', new_password_repeat: 'other' });
    expect(differ.statusCode).toBe(400);
    const again = formOf(differ);
    const weak = await postAuthorize(
      api,
      'fresh',
      {
        ...params,
        csrf_token: again.csrf,
        password_change_ticket: again.ticket!,
        new_password: 'short',
        new_password_repeat: 'short',
      },
      again.cookie,
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('at least 12 characters');
    const last = formOf(weak);
    const done = await postAuthorize(
      api,
      'fresh',
      {
        ...params,
        csrf_token: last.csrf,
        password_change_ticket: last.ticket!,
        new_password: 'Brand-new-pass-42',
        new_password_repeat: 'Brand-new-pass-42',
      },
      last.cookie,
    );
    codeOf(done, params);
    // The one-time password no longer works; the new one does.
    expect((await submitSignIn(api, 'fresh', Username, Password)).response.statusCode).toBe(401);
    expect((await signIn(api, 'fresh', Username, 'Brand-new-pass-42')).access_token).toBeTruthy();
  });
});

describe('client addresses behind a trusted proxy (TRUST_PROXY)', () => {
  it('counts failures per forwarded address, not per proxy', async () => {
    const proxied = await startTestApi({ TRUST_PROXY: '127.0.0.1' });
    try {
      const tenant = await proxied.createTenant('proxied');
      await createMember(proxied, tenant, 'behind-proxy', ['analyst']);
      const attempt = async (forwardedFor: string, password: string) => {
        const params = authorizeParams(proxied, tenant, newPkce());
        const { csrf, cookie } = formOf(await getAuthorize(proxied, tenant, params));
        return proxied.app.inject({
          method: 'POST',
          url: '/oauth/authorize',
          remoteAddress: '127.0.0.1',
          headers: {
            host: tenant.host,
            'content-type': 'application/x-www-form-urlencoded',
            cookie,
            'x-forwarded-for': forwardedFor,
          },
          payload: new URLSearchParams({
            ...params,
            csrf_token: csrf,
            username: `sprayed-${Math.random()}`,
            password,
          }).toString(),
        });
      };
      for (let i = 0; i < 20; i++) await attempt('203.0.113.5', 'wrong-Guess-abc1');
      expect((await attempt('203.0.113.5', 'wrong-Guess-abc1')).statusCode).toBe(429);
      // Another client behind the same proxy is not locked out.
      expect((await attempt('203.0.113.6', 'wrong-Guess-abc1')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});
