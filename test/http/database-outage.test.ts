// The database goes away under a running server (a TCP proxy between them is cut) and comes
// back: requests get 503 with the error body and Retry-After, readiness fails, nothing is
// half-written, and the server recovers by itself. PostgreSQL only: the embedded database lives
// in the process and cannot be cut off from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection/database.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { basicAuth, errorBody, LogLines } from '../support/test-api.ts';
import { checkInjectedAnswers } from '../support/openapi-answers.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const accept = 'application/vnd.xomni.api-v4-0';

describe.skipIf(!onPostgres)('database outage', () => {
  let testDatabase: TestDatabase;
  let proxy: TcpProxy;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let host: string;
  let token: string;
  let priceTypeId: number;
  let requestToken: () => Promise<LightMyRequestResponse>;

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        host,
        accept,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const ready = () => app.inject({ method: 'GET', url: '/health/ready' });
  const itemCount = async () =>
    Number(
      (await testDatabase.handle.query<{ n: string }>('select count(*) as n from items'))[0]!.n,
    );
  const createItem = (title: string) =>
    call('POST', '/private/catalog/item', {
      Title: title,
      Prices: [{ PriceTypeId: priceTypeId, NormalPrice: 10 }],
    });

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    const target = new URL(testDatabase.url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const config = loadConfig({ LOG_LEVEL: 'info', PORT: '8080', DATA_DIR: '/nonexistent' });
    database = await openDatabase({
      databaseUrl: proxied.toString(),
      dataDir: '/nonexistent',
      onBackgroundError: () => {},
    });
    const services = createServices(config, database);
    app = await buildApp(services, { logStream: new LogLines() });
    checkInjectedAnswers(app);
    await app.ready();
    const { bootstrapApp } = await services.tenants.create('outage');
    host = `outage.${config.apiHost}`;
    requestToken = () =>
      app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          host,
          authorization: basicAuth(bootstrapApp.ApplicationId, bootstrapApp.ApplicationSecret!),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'grant_type=client_credentials',
      });
    token = (await requestToken()).json<{ access_token: string }>().access_token;
    const priceType = await call('POST', '/private/catalog/pricetype', {
      Description: 'Retail',
      PriceTypeSymbol: 'EUR',
    });
    expect(priceType.statusCode).toBe(201);
    priceTypeId = priceType.json<{ Id: number }>().Id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await proxy?.close();
    await testDatabase?.handle.close();
  });

  const expectUnavailable = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(503);
    expect(errorBody(response).Code).toBe('DatabaseUnavailable');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    // Neither the driver's message nor SQL reaches the client.
    expect(response.body).not.toMatch(/ECONNREFUSED|select|insert|terminated/i);
  };

  it('answers 503 with Retry-After while the database is away, and recovers by itself', async () => {
    const before = await createItem('Before the outage');
    expect(before.statusCode).toBe(201);
    const itemId = before.json<{ Id: number }>().Id;

    await proxy.cut();
    expectUnavailable(await call('GET', `/private/catalog/item/${itemId}`));
    expectUnavailable(await createItem('During the outage'));
    // The token endpoint too (its other errors have RFC 6749 bodies): never a 500 server_error.
    expectUnavailable(await requestToken());
    const readiness = await ready();
    expect(readiness.statusCode).toBe(503);
    expect(readiness.json()).toMatchObject({ Status: 'database unreachable' });

    await proxy.restore();
    // The pool reconnects on the next query; no restart and no operator step.
    await expect.poll(async () => (await ready()).statusCode, { timeout: 20_000 }).toBe(200);
    const after = await call('GET', `/private/catalog/item/${itemId}`);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ Title: 'Before the outage' });
    expect((await createItem('After the outage')).statusCode).toBe(201);
    const titles = await testDatabase.handle.query<{ title: string }>(
      'select title from items order by id',
    );
    expect(titles.map((row) => row.title)).toEqual(['Before the outage', 'After the outage']);
  }, 60_000);

  it('keeps every acknowledged write whole and no refused one when the cut comes mid-stream', async () => {
    const countBefore = await itemCount();
    // Writes in flight while the connection is cut: each either committed (201) with its
    // prices, or left nothing.
    const writes = Array.from({ length: 40 }, (_, i) => createItem(`Stream ${i}`));
    await new Promise((resolve) => setTimeout(resolve, 15));
    await proxy.cut();
    const responses = await Promise.all(writes);
    await proxy.restore();
    await expect.poll(async () => (await ready()).statusCode, { timeout: 20_000 }).toBe(200);

    for (const response of responses) expect([201, 503]).toContain(response.statusCode);
    for (const response of responses.filter((r) => r.statusCode === 503))
      expectUnavailable(response);
    const acknowledged = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json<{ Id: number }>().Id);
    const stored = await testDatabase.handle.query<{ id: number; prices: string }>(
      `select i.id, (select count(*) from item_prices p where p.tenant_id = i.tenant_id and p.item_id = i.id) as prices
         from items i where i.title like 'Stream %' order by i.id`,
    );
    // A write whose response was lost with the connection may have committed: the ones stored
    // are a superset of the acknowledged ones, and each is whole.
    expect(stored.map((row) => row.id)).toEqual(expect.arrayContaining(acknowledged));
    for (const row of stored) expect(Number(row.prices)).toBe(1);
    expect(await itemCount()).toBe(countBefore + stored.length);
  }, 60_000);
});
