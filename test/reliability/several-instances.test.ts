// Two server processes on one PostgreSQL, one S3 store and one Redis, behind a round-robin proxy:
// through it, tokens, revocation, per-app rate limits, continuation tokens and blob URLs behave
// as with one instance. PostgreSQL only (two processes cannot share an embedded database).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { bearerCall, clientToken, httpCall } from '../support/http-call.ts';
import { listeningServer, removeTempDirs, stopChildren, tempDir } from '../support/processes.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import { REDIS_URL, redisAnswers } from '../support/redis.ts';
import { startS3rver, type S3rver } from '../support/s3-server.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const RATE_LIMIT = 40;
const redisReachable = await redisAnswers();

describe.skipIf(!onPostgres)('two instances behind a round-robin proxy', () => {
  let database: TestDatabase;
  let s3: S3rver;
  let proxy: RoundRobinProxy;
  let tenant: string;
  let app: { id: string; secret: string };

  beforeAll(async () => {
    database = await openTestDatabase();
    s3 = await startS3rver(await tempDir('omni-s3-'));
    tenant = `twin${randomUUID().slice(0, 6)}`;
    const services = createServices(loadConfig({ DATABASE_URL: database.url! }), database.handle);
    const { bootstrapApp } = await services.tenants.create(tenant);
    app = { id: bootstrapApp.ApplicationId, secret: bootstrapApp.ApplicationSecret! };
    const env = {
      DATABASE_URL: database.url!,
      S3_URL: s3.url,
      REDIS_URL,
      APP_RATE_LIMITS: `2=${RATE_LIMIT}`,
      JOB_POLLING_INTERVAL_SECONDS: '1',
    };
    const [a, b] = await Promise.all([
      listeningServer(await tempDir(), env),
      listeningServer(await tempDir(), env),
    ]);
    proxy = await startRoundRobinProxy([a.port, b.port]);
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await stopChildren();
    await s3?.stop();
    await removeTempDirs();
    await database?.handle.close();
  });

  const host = () => `${tenant}.localhost:${proxy.port}`;
  const call = (
    method: string,
    path: string,
    token: string,
    body?: string | Buffer,
    type?: string,
  ) => bearerCall(proxy.port, host(), token, method, path, body, type);
  const tokenOf = (id: string, secret: string) => clientToken(proxy.port, host(), id, secret);
  const privateApp = async (token: string) => {
    const created = await call(
      'POST',
      '/management/oauth/apps',
      token,
      JSON.stringify({ Name: `Private ${randomUUID().slice(0, 6)}`, ApplicationTypeId: 2 }),
    );
    expect(created.status).toBe(201);
    const body = JSON.parse(created.body.toString()) as {
      ApplicationId: string;
      ApplicationSecret: string;
    };
    return tokenOf(body.ApplicationId, body.ApplicationSecret);
  };

  it('accepts a token on both instances, and a revocation takes effect on both', async () => {
    const token = await tokenOf(app.id, app.secret);
    const before = [...proxy.served];
    for (let i = 0; i < 4; i++)
      expect((await call('GET', '/management/oauth/apps', token)).status).toBe(200);
    expect(proxy.served.map((n, i) => n - before[i]!)).toEqual([2, 2]);

    const revoked = await httpCall(proxy.port, {
      method: 'POST',
      path: '/oauth/revoke',
      host: host(),
      headers: {
        authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `token=${token}`,
    });
    expect(revoked.status).toBe(200);
    // The other instance learns of it at its next invalidation poll.
    await expect
      .poll(
        async () => [
          (await call('GET', '/management/oauth/apps', token)).status,
          (await call('GET', '/management/oauth/apps', token)).status,
        ],
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([401, 401]);
  });

  it.skipIf(!redisReachable)('counts one app budget across both instances', async () => {
    const management = await tokenOf(app.id, app.secret);
    const token = await privateApp(management);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 4; i++)
      statuses.push((await call('GET', '/private/catalog/brands', token)).status);
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429, 429, 429]);
  });

  it('pages analytics logs with continuation tokens across instances, none skipped or repeated', async () => {
    const management = await tokenOf(app.id, app.secret);
    const from = new Date(Date.now() - 60_000).toISOString();
    const records = Array.from({ length: 250 }, (_, i) => ({ Counter: 'ItemView', ItemId: i + 1 }));
    expect(
      (await call('POST', '/analytics/logs', management, JSON.stringify(records))).status,
    ).toBe(202);
    const to = new Date(Date.now() + 60_000).toISOString();
    const seen: number[] = [];
    let continuation: string | null = null;
    do {
      const path: string =
        `/private/analytics/servercounters/ItemView/logs?take=100&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}` +
        (continuation ? `&continuationKey=${encodeURIComponent(continuation)}` : '');
      const page = await call('GET', path, management);
      expect(page.status, page.body.toString()).toBe(200);
      const body = JSON.parse(page.body.toString()) as {
        ContinuationToken: string | null;
        Logs: { ItemId: number }[];
      };
      seen.push(...body.Logs.map((log) => log.ItemId));
      continuation = body.ContinuationToken;
    } while (continuation);
    expect(seen).toEqual(records.map((r) => r.ItemId));
  });

  it('serves an asset uploaded through one instance from both (S3 store)', async () => {
    const management = await tokenOf(app.id, app.secret);
    const bytes = randomBytes(300_000);
    const uploaded = await call(
      'POST',
      '/management/storage/asset/raw?fileName=shared.bin',
      management,
      bytes,
      'application/octet-stream',
    );
    expect(uploaded.status, uploaded.body.toString()).toBe(201);
    const { AssetUrl } = JSON.parse(uploaded.body.toString()) as { AssetUrl: string };
    const sha = createHash('sha256').update(bytes).digest('hex');
    for (let i = 0; i < 2; i++) {
      const content = await httpCall(proxy.port, {
        path: new URL(AssetUrl).pathname,
        host: host(),
      });
      expect(content.status).toBe(200);
      expect(createHash('sha256').update(content.body).digest('hex')).toBe(sha);
    }
  });
});
