// POST /oauth/token: throttling failed client authentication (contract §3).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../../support/test-api.ts';
import { createApp, FORM, oauthError, oauthRequest } from './oauth-fixtures.ts';
import {
  useTokenEndpointApi,
  api,
  acme,
  apps,
  CLIENT_CREDENTIALS,
  basic,
} from './token-endpoint-fixtures.ts';

useTokenEndpointApi();

/** `count` distinct spellings of a uuid: its letters upper- or lowercased by the bits of an index. */
function caseSpellings(id: string, count: number): string[] {
  const spellings: string[] = [];
  for (let mask = 1; spellings.length < count; mask++) {
    let letter = 0;
    spellings.push(
      [...id]
        .map((c) => (/[a-f]/.test(c) ? ((mask >> (letter++ % 3)) & 1 ? c.toUpperCase() : c) : c))
        .join(''),
    );
  }
  return spellings;
}

/**
 * Checks that `clientId` is locked for `source` after its failures, and keeps it locked for a
 * minute: the first lock lasts 1 s, which a slow machine could let run out before the requests
 * that test it.
 */
async function holdLock(clientId: string, source: string): Promise<void> {
  const held = await api.database.handle.query(
    `update client_auth_failures set locked_until = now() + interval '1 minute'
      where client_id = $1 and source = $2 and locked_until is not null returning 1`,
    [clientId.toLowerCase(), source],
  );
  expect(held, `${clientId} is locked for ${source}`).toHaveLength(1);
}

describe('POST /oauth/token: throttling failed client authentication', () => {
  it('locks a client id after 5 wrong secrets from one source, even for the right secret, with Retry-After', async () => {
    const app = await createApp(api, acme, 3, 'Throttled');
    const wrong = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId, 'guess'),
    };
    for (let i = 0; i < 5; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');
    await holdLock(app.ApplicationId, '127.0.0.1');

    // The right secret first, then a wrong one: both refused while the lock holds.
    for (const attempt of [{ form: CLIENT_CREDENTIALS, authorization: basic(app) }, wrong]) {
      const locked = await oauthRequest(api, acme, attempt);
      oauthError(locked, 429, 'slow_down');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // The form-field method is locked as well.
    const form = await oauthRequest(api, acme, {
      form: {
        ...CLIENT_CREDENTIALS,
        client_id: app.ApplicationId,
        client_secret: app.ApplicationSecret,
      },
    });
    oauthError(form, 429, 'slow_down');

    // The rightful client elsewhere is not locked out.
    const elsewhere = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '10.1.2.3',
      headers: { host: acme.host, 'content-type': FORM, authorization: basic(app) },
      payload: new URLSearchParams(CLIENT_CREDENTIALS).toString(),
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    // Nor are other clients from the locked source.
    expect(
      (await oauthRequest(api, acme, { form: CLIENT_CREDENTIALS, authorization: basic(apps[1]!) }))
        .statusCode,
    ).toBe(200);
  });

  it('counts the failures of one app under every spelling of its id (the lookup ignores case)', async () => {
    // An ApplicationId with at least three letters has at least eight spellings.
    let app = await createApp(api, acme, 3, 'Case-throttled');
    while ((app.ApplicationId.match(/[a-f]/g) ?? []).length < 3)
      app = await createApp(api, acme, 3, 'Case-throttled');
    const spellings = caseSpellings(app.ApplicationId, 7);
    expect(new Set(spellings).size).toBe(7);
    const source = '10.6.6.6';
    // Five wrong secrets, each under another spelling of the one client id (HTTP Basic and form).
    for (const [i, spelling] of spellings.slice(0, 5).entries()) {
      const attempt =
        i % 2 === 0
          ? { form: CLIENT_CREDENTIALS, authorization: basicAuth(spelling, 'guess') }
          : { form: { ...CLIENT_CREDENTIALS, client_id: spelling, client_secret: 'guess' } };
      oauthError(
        await oauthRequest(api, acme, { ...attempt, remoteAddress: source }),
        401,
        'invalid_client',
      );
    }
    await holdLock(app.ApplicationId, source);
    // The right secret under yet another spelling is refused: the app is locked for this source.
    const locked = await oauthRequest(api, acme, {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(spellings[5]!, app.ApplicationSecret),
      remoteAddress: source,
    });
    oauthError(locked, 429, 'slow_down');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const form = await oauthRequest(api, acme, {
      form: {
        ...CLIENT_CREDENTIALS,
        client_id: spellings[6]!,
        client_secret: app.ApplicationSecret,
      },
      remoteAddress: source,
    });
    oauthError(form, 429, 'slow_down');
  });

  it('locks unknown client ids too', async () => {
    const id = randomUUID();
    const unknown = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(id, 'guess'),
      remoteAddress: '10.9.9.9',
    };
    for (let i = 0; i < 5; i++)
      oauthError(await oauthRequest(api, acme, unknown), 401, 'invalid_client');
    await holdLock(id, '10.9.9.9');
    oauthError(await oauthRequest(api, acme, unknown), 429, 'slow_down');
  });

  it('forgets earlier failures after a success', async () => {
    const app = await createApp(api, acme, 1, 'Forgiven');
    const wrong = {
      form: CLIENT_CREDENTIALS,
      authorization: basicAuth(app.ApplicationId, 'guess'),
      remoteAddress: '10.4.4.4',
    };
    const right = {
      form: CLIENT_CREDENTIALS,
      authorization: basic(app),
      remoteAddress: '10.4.4.4',
    };
    for (let i = 0; i < 4; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');
    expect((await oauthRequest(api, acme, right)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++)
      oauthError(await oauthRequest(api, acme, wrong), 401, 'invalid_client');
    expect((await oauthRequest(api, acme, right)).statusCode).toBe(200);
  });
});
