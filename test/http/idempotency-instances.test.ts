// Idempotency-Key across two server processes on one PostgreSQL: a key used on one instance is
// replayed (or refused) by the other, and the same request sent to both at once runs once.
// PostgreSQL only (two processes cannot share an embedded database).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { clientToken, httpCall, type HttpAnswer } from '../support/http-call.ts';
import { listeningServer, removeTempDirs, stopChildren, tempDir } from '../support/processes.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('Idempotency-Key on two instances', () => {
  let database: TestDatabase;
  let tenant: string;
  let tenantId: number;
  let ports: [number, number];
  let token: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    tenant = `idem${randomUUID().slice(0, 6)}`;
    const services = createServices(loadConfig({ DATABASE_URL: database.url! }), database.handle);
    const { tenant: created, bootstrapApp } = await services.tenants.create(tenant);
    tenantId = created.id;
    const env = { DATABASE_URL: database.url! };
    const [a, b] = await Promise.all([
      listeningServer(await tempDir(), env),
      listeningServer(await tempDir(), env),
    ]);
    ports = [a.port, b.port];
    token = await clientToken(
      a.port,
      `${tenant}.localhost`,
      bootstrapApp.ApplicationId,
      bootstrapApp.ApplicationSecret!,
    );
  }, 120_000);

  afterAll(async () => {
    await stopChildren();
    await removeTempDirs();
    await database?.handle.close();
  });

  const postItem = (instance: 0 | 1, key: string, body: unknown): Promise<HttpAnswer> =>
    httpCall(ports[instance], {
      method: 'POST',
      path: '/private/catalog/item',
      host: `${tenant}.localhost`,
      headers: {
        accept: 'application/vnd.xomni.api-v4-0',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
    });

  const itemCount = async (sku: string) =>
    (
      await database.handle.query<{ n: number }>(
        'select count(*)::int as n from items where tenant_id = $1 and sku = $2',
        [tenantId, sku],
      )
    )[0]!.n;

  const codeOf = (answer: HttpAnswer) => (JSON.parse(answer.text) as { Code: string }).Code;

  function expectReplayOf(replay: HttpAnswer, first: HttpAnswer): void {
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    for (const name of ['content-type', 'location', 'etag', 'x-request-id'])
      expect(replay.headers[name], name).toBe(first.headers[name]);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  }

  it('replays on one instance what the other answered, and refuses another body there', async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    const first = await postItem(0, key, { Title: 'Lamp', SKU: sku });
    expect(first.status).toBe(201);
    expectReplayOf(await postItem(1, key, { Title: 'Lamp', SKU: sku }), first);
    const reused = await postItem(1, key, { Title: 'Other', SKU: sku });
    expect(reused.status).toBe(422);
    expect(codeOf(reused)).toBe('IdempotencyKeyReused');
    expect(await itemCount(sku)).toBe(1);
  });

  it('runs the same request sent to both instances at once only once', async () => {
    for (let round = 0; round < 10; round++) {
      const key = randomUUID();
      const sku = `SKU-${key}`;
      const answers = await Promise.all([
        postItem(0, key, { Title: 'Lamp', SKU: sku }),
        postItem(1, key, { Title: 'Lamp', SKU: sku }),
      ]);
      const ran = answers.filter((a) => a.status === 201 && !a.headers['idempotent-replayed']);
      expect(ran).toHaveLength(1);
      const other = answers.find((a) => a !== ran[0])!;
      if (other.status === 409) expect(codeOf(other)).toBe('IdempotencyKeyInUse');
      else expectReplayOf(other, ran[0]!);
      expect(await itemCount(sku)).toBe(1);
    }
  });

  it('answers 409 on one instance while the other still runs the request', async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    // Another session holds the items table, so the request on instance 0 waits in its handler.
    let unlock!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.handle.rawTransaction(async (sql) => {
      await sql.query('lock table items in exclusive mode');
      locked();
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    await isLocked;
    const first = postItem(0, key, { Title: 'Lamp', SKU: sku });
    await expect
      .poll(
        async () =>
          (await database.handle.query('select 1 from idempotency_keys where key = $1', [key]))
            .length,
        { timeout: 10_000 },
      )
      .toBe(1);
    const running = await postItem(1, key, { Title: 'Lamp', SKU: sku });
    expect(running.status).toBe(409);
    expect(codeOf(running)).toBe('IdempotencyKeyInUse');
    expect(running.headers['retry-after']).toBe('1');
    unlock();
    await holder;
    const ran = await first;
    expect(ran.status).toBe(201);
    expectReplayOf(await postItem(1, key, { Title: 'Lamp', SKU: sku }), ran);
    expect(await itemCount(sku)).toBe(1);
  });
});
