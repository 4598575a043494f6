// What the token machinery keeps on the side stays correct under concurrency and bounded over
// time: guesses sent in parallel are all counted, instances starting together agree on one
// signing key, invalidations touch only the tokens they name, and a job prunes what is spent.
import { describe, expect, it } from 'vitest';
import { createServices } from '../../../src/module-wiring.ts';
import { FREE_FAILURES } from '../../../src/modules/oauth/client-authentication.ts';
import { pruneOAuthRecords } from '../../../src/modules/oauth/oauth-pruning.ts';
import { useTestApi, useTenant, basicAuth } from '../../support/test-api.ts';
import { openTestDatabase } from '../../support/test-database.ts';
import { createApp, oauthError, oauthRequest } from './oauth-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

describe('POST /oauth/token: wrong secrets sent in parallel', () => {
  it('are all counted: past the free failures, the rest are refused without trying the secret', async () => {
    const app = await createApp(api, acme, 2);
    const guesses = await Promise.all(
      Array.from({ length: FREE_FAILURES + 5 }, (_, i) =>
        oauthRequest(api, acme, {
          form: { grant_type: 'client_credentials' },
          authorization: basicAuth(app.ApplicationId, `wrong-${i}`),
          remoteAddress: '203.0.113.7',
        }),
      ),
    );
    const statuses = guesses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([
      ...Array<number>(FREE_FAILURES).fill(401),
      ...Array<number>(5).fill(429),
    ]);
    for (const refused of guesses.filter((r) => r.statusCode === 429))
      oauthError(refused, 429, 'slow_down');
    const [row] = await api.database.handle.query<{ failures: number }>(
      'select failures from client_auth_failures where client_id = $1',
      [app.ApplicationId],
    );
    expect(row!.failures).toBe(FREE_FAILURES);
    // The right secret from another address is not affected.
    const rightful = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials' },
      authorization: basicAuth(app.ApplicationId, app.ApplicationSecret),
      remoteAddress: '198.51.100.1',
    });
    expect(rightful.statusCode).toBe(200);
  });
});

describe('signing keys of instances that start together on an empty database', () => {
  it('are one: a single active key that every instance signs with', async () => {
    const database = await openTestDatabase();
    try {
      const instances = Array.from({ length: 4 }, () =>
        createServices(api.config, database.handle),
      );
      await Promise.all(instances.map((services) => services.oauth.tokens.keys.load()));
      const active = await database.handle.query<{ kid: string }>(
        'select kid from signing_keys where retired_at is null',
      );
      expect(active).toHaveLength(1);
      for (const services of instances)
        expect(services.oauth.tokens.keys.signingKey().kid).toBe(active[0]!.kid);
    } finally {
      await database.handle.close();
    }
  });
});

describe('dropping cached tokens', () => {
  it('touches only the tokens of the app (or the one token) named', async () => {
    const first = await createApp(api, acme, 2);
    const second = await createApp(api, acme, 2);
    const tokens = api.services.oauth.tokens;
    const tokenOf = (app: { ApplicationId: string; ApplicationSecret: string }) =>
      api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    const [a1, a2, b1] = [await tokenOf(first), await tokenOf(first), await tokenOf(second)];
    const use = (token: string) => api.call({ url: '/private/catalog/items', tenant: acme, token });
    for (const token of [a1, a2, b1]) expect((await use(token)).statusCode).toBe(200);
    const tenant = { id: (await api.services.tenants.findByName('acme'))!.id, baseUrl: '' };
    const cached = (token: string) =>
      tokens.verifyCached(token, { ...tenant, baseUrl: `http://acme.localhost:8080` });
    expect(cached(a1)).toBeDefined();

    // Revoking one token drops it alone.
    const revoke = await oauthRequest(api, acme, {
      url: '/oauth/revoke',
      form: { token: a1 },
      authorization: basicAuth(first.ApplicationId, first.ApplicationSecret),
    });
    expect(revoke.statusCode).toBe(200);
    expect(cached(a1)).toBeUndefined();
    expect(cached(a2)).toBeDefined();
    expect(cached(b1)).toBeDefined();

    // Forgetting an app drops its tokens, not the other app's.
    tokens.forget(tenant.id, first.ApplicationId);
    expect(cached(a2)).toBeUndefined();
    expect(cached(b1)).toBeDefined();
    expect((await use(b1)).statusCode).toBe(200);
  });
});

describe('the oauth pruning job', () => {
  it('removes spent revocations, old invalidations and stale failure records, and keeps the rest', async () => {
    const sql = api.database.handle;
    const tenantId = (await api.services.tenants.findByName('acme'))!.id;
    const ttl = api.config.tokenTtlSeconds;
    await sql.query(
      `insert into revoked_tokens (tenant_id, jti, expires_at) values
         ($1, gen_random_uuid(), now() - interval '1 minute'), ($1, gen_random_uuid(), now() + interval '1 hour')`,
      [tenantId],
    );
    await sql.query(
      `insert into auth_invalidations (tenant_id, app_id, created_at) values
         ($1, gen_random_uuid(), now() - make_interval(secs => $2 * 3)), ($1, gen_random_uuid(), now())`,
      [tenantId, ttl],
    );
    await sql.query(
      `insert into client_auth_failures (tenant_id, client_id, source, failures, first_failed_at, locked_until) values
         ($1, 'stale', 'x', 3, now() - interval '1 hour', null),
         ($1, 'stale-locked', 'x', 9, now() - interval '1 hour', now() + interval '30 seconds'),
         ($1, 'recent', 'x', 1, now(), null)`,
      [tenantId],
    );
    const counts = async () =>
      (
        await sql.query<{ revoked: number; invalidations: number; failures: string[] }>(
          `select (select count(*)::int from revoked_tokens where tenant_id = $1) as revoked,
                  (select count(*)::int from auth_invalidations where tenant_id = $1) as invalidations,
                  (select array_agg(client_id order by client_id) from client_auth_failures
                    where tenant_id = $1 and source = 'x') as failures`,
          [tenantId],
        )
      )[0]!;
    const before = await counts();
    const pruned = await pruneOAuthRecords(sql, ttl);
    expect(pruned.revokedTokens).toBeGreaterThanOrEqual(1);
    expect(pruned.invalidations).toBeGreaterThanOrEqual(1);
    expect(pruned.clientAuthFailures).toBeGreaterThanOrEqual(1);
    const after = await counts();
    expect(after.revoked).toBe(before.revoked - pruned.revokedTokens);
    expect(after.invalidations).toBe(before.invalidations - pruned.invalidations);
    expect(after.failures).toEqual(['recent', 'stale-locked']);
  });

  it('is scheduled: its queue is declared with a cron expression', () => {
    const oauth = api.services.modules.find((m) => m.name === 'oauth')!;
    expect(oauth.queues?.find((q) => q.name === 'oauth.prune')?.cron).toBe('*/10 * * * *');
  });
});
