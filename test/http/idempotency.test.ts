// Idempotency-Key on POST and PATCH (IETF httpapi draft): a retry with the same key and request
// answers the stored status, headers and body without running again; another request under the
// key is 422; a key whose request still runs is 409; keys are per tenant and app; a bad key is
// 400; keys expire and are pruned; a crashed request's key is taken over once its lease is over.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/http/authentication.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';
import { registerIdempotency } from '../../src/http/idempotency.ts';
import { IDEMPOTENCY_PRUNE_QUEUE } from '../../src/http/idempotency-pruning.ts';
import { IdempotencyStore } from '../../src/http/idempotency-store.ts';
import { useTestApi, useTenant, errorBody, type TestTenant } from '../support/test-api.ts';

const TTL_SECONDS = 7200;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const api = useTestApi({ IDEMPOTENCY_KEY_TTL_SECONDS: String(TTL_SECONDS) });
const acme = useTenant(api, 'acme');
let other: TestTenant;

beforeAll(async () => {
  other = await api.createTenant('other');
});

const newKey = () => randomUUID();

function postItem(
  body: unknown,
  key: string | undefined,
  options: { tenant?: TestTenant; token?: string; url?: string } = {},
) {
  return api.call({
    method: 'POST',
    url: options.url ?? '/private/catalog/item',
    tenant: options.tenant ?? acme,
    ...(options.token ? { token: options.token } : {}),
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

async function itemCount(tenant: TestTenant, sku: string): Promise<number> {
  const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
  const [row] = await api.database.handle.query<{ n: number }>(
    'select count(*)::int as n from items where tenant_id = $1 and sku = $2',
    [tenantId, sku],
  );
  return row!.n;
}

async function keyRows(key: string) {
  return api.database.handle.query<{ status_code: number | null; expires_at: Date }>(
    'select status_code, expires_at from idempotency_keys where key = $1',
    [key],
  );
}

/** A second management app of the tenant, and a token of it. */
async function otherAppToken(tenant: TestTenant): Promise<{ id: string; token: string }> {
  const created = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: `Second ${randomUUID().slice(0, 6)}`, ApplicationTypeId: 3 },
  });
  expect(created.statusCode).toBe(201);
  const app = created.json<{ ApplicationId: string; ApplicationSecret: string }>();
  return {
    id: app.ApplicationId,
    token: await api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret),
  };
}

function expectReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  expect(replay.statusCode).toBe(first.statusCode);
  expect(replay.body).toBe(first.body);
  for (const name of ['content-type', 'location', 'etag', 'x-request-id'])
    expect(replay.headers[name], name).toBe(first.headers[name]);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
}

describe('POST with an Idempotency-Key', () => {
  it('runs once: a retry answers the stored status, headers and body, and creates nothing', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers.location).toMatch(/^\/private\/catalog\/item\/\d+$/);
    expect(first.headers.etag).toBeDefined();

    const retry = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expectReplayOf(retry, first);
    // The same key as a structured-field string is the same key.
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, `"${key}"`), first);
    expect(await itemCount(acme, sku)).toBe(1);
  });

  it('runs every request without a key (the header is what makes a retry safe)', async () => {
    const sku = `SKU-${newKey()}`;
    expect((await postItem({ Title: 'Lamp', SKU: `${sku}-a` }, undefined)).statusCode).toBe(201);
    expect((await postItem({ Title: 'Lamp', SKU: `${sku}-b` }, undefined)).statusCode).toBe(201);
    expect(await itemCount(acme, `${sku}-a`)).toBe(1);
    expect(await itemCount(acme, `${sku}-b`)).toBe(1);
  });

  it('answers 422 IdempotencyKeyReused for the same key with another body or URL, running nothing', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    expect((await postItem({ Title: 'Lamp', SKU: sku }, key)).statusCode).toBe(201);

    const otherBody = await postItem({ Title: 'Another lamp', SKU: `${sku}-2` }, key);
    expect(otherBody.statusCode).toBe(422);
    expect(errorBody(otherBody).Code).toBe('IdempotencyKeyReused');
    expect(await itemCount(acme, `${sku}-2`)).toBe(0);

    const otherUrl = await postItem({ Name: 'Brand' }, key, { url: '/private/catalog/brand' });
    expect(otherUrl.statusCode).toBe(422);
    expect(errorBody(otherUrl).Code).toBe('IdempotencyKeyReused');
  });

  it('stores a refusal of the operation (4xx) and answers it again, identical', async () => {
    const sku = `SKU-${newKey()}`;
    expect((await postItem({ Title: 'Original', SKU: sku }, undefined)).statusCode).toBe(201);
    const key = newKey();
    const duplicate = await postItem({ Title: 'Copy', SKU: sku }, key);
    expect(duplicate.statusCode).toBe(409);
    expect(errorBody(duplicate).Code).toBe('DuplicateSku');
    const retry = await postItem({ Title: 'Copy', SKU: sku }, key);
    expectReplayOf(retry, duplicate);
    // The replayed error body still names its request: IdentifierGuid = X-Request-Id.
    expect(errorBody(retry).IdentifierGuid).toBe(errorBody(duplicate).IdentifierGuid);
  });

  it('claims nothing for a request the schema refuses: the key stays free for a good one', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const refused = await postItem({ SKU: sku, Unknown: 1 }, key);
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).Code).toBe('ValidationFailed');
    expect(await keyRows(key)).toEqual([]);
    expect((await postItem({ Title: 'Lamp', SKU: sku }, key)).statusCode).toBe(201);
  });

  it('runs one of several concurrent requests with one key; the others get 409 or the replay', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postItem({ Title: 'Lamp', SKU: sku }, key)),
    );
    const ran = answers.filter((a) => a.statusCode === 201 && !a.headers['idempotent-replayed']);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer === ran[0]) continue;
      if (answer.statusCode === 409) {
        expect(errorBody(answer).Code).toBe('IdempotencyKeyInUse');
        expect(answer.headers['retry-after']).toBe('1');
      } else expectReplayOf(answer, ran[0]!);
    }
    expect(await itemCount(acme, sku)).toBe(1);
    // Once the first has answered, a retry gets its answer.
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, key), ran[0]!);
  });

  // One connection (PGlite) cannot hold a lock while the request runs.
  it.skipIf(!onPostgres)(
    'answers 409 IdempotencyKeyInUse to a retry while the first request is still running (PostgreSQL)',
    async () => {
      const key = newKey();
      const sku = `SKU-${key}`;
      // Another session holds the items table, so the first request waits inside its handler.
      let unlock!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = api.database.handle.rawTransaction(async (sql) => {
        await sql.query('lock table items in exclusive mode');
        locked();
        await new Promise<void>((resolve) => (unlock = resolve));
      });
      await isLocked;
      const first = postItem({ Title: 'Lamp', SKU: sku }, key);
      await expect.poll(async () => (await keyRows(key)).length, { timeout: 10_000 }).toBe(1);
      const retry = await postItem({ Title: 'Lamp', SKU: sku }, key);
      expect(retry.statusCode).toBe(409);
      expect(errorBody(retry).Code).toBe('IdempotencyKeyInUse');
      expect(retry.headers['retry-after']).toBe('1');
      unlock();
      await holder;
      const ran = await first;
      expect(ran.statusCode).toBe(201);
      expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, key), ran);
      expect(await itemCount(acme, sku)).toBe(1);
    },
  );

  it('keeps keys per app and per tenant: another app or tenant with the same key runs its own request', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(first.statusCode).toBe(201);

    const second = await otherAppToken(acme);
    const otherApp = await postItem({ Title: 'Lamp', SKU: `${sku}-b` }, key, {
      token: second.token,
    });
    expect(otherApp.statusCode).toBe(201);
    expect(otherApp.headers['idempotent-replayed']).toBeUndefined();
    expect(otherApp.headers.location).not.toBe(first.headers.location);

    const otherTenant = await postItem({ Title: 'Lamp', SKU: sku }, key, { tenant: other });
    expect(otherTenant.statusCode).toBe(201);
    expect(otherTenant.headers['idempotent-replayed']).toBeUndefined();
    expect(await itemCount(other, sku)).toBe(1);
    expect(await itemCount(acme, sku)).toBe(1);
  });

  it("removes an app's keys with the app", async () => {
    const second = await otherAppToken(acme);
    const key = newKey();
    expect(
      (await postItem({ Title: 'Lamp', SKU: `SKU-${key}` }, key, { token: second.token }))
        .statusCode,
    ).toBe(201);
    expect(await keyRows(key)).toHaveLength(1);
    const deleted = await api.call({
      method: 'DELETE',
      url: `/management/oauth/apps/${second.id}`,
      tenant: acme,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await keyRows(key)).toEqual([]);
  });

  it('stores an answer without a body (201 with Location only) and replays it', async () => {
    const key = newKey();
    const body = {
      ServiceName: `svc-${key.slice(0, 8)}`,
      ServiceTier: 0,
      AdminMail: 'ops@example.com',
    };
    const call = () =>
      api.call({
        method: 'POST',
        url: '/management/integration/endpoint',
        tenant: other,
        body,
        headers: { 'idempotency-key': key },
      });
    const first = await call();
    expect(first.statusCode).toBe(201);
    const retry = await call();
    expectReplayOf(retry, first);
    expect(retry.body).toBe('');
  });
});

describe('a raw asset upload with an Idempotency-Key', () => {
  it('is replayed for the same type and length, and 422 for another length', async () => {
    const key = newKey();
    const upload = (bytes: string) =>
      api.app.inject({
        method: 'POST',
        url: '/management/storage/asset/raw?fileName=notes.txt',
        headers: {
          host: acme.host,
          authorization: `Bearer ${acme.token}`,
          'content-type': 'text/plain',
          'idempotency-key': key,
        },
        payload: bytes,
      });
    const first = await upload('hello');
    expect(first.statusCode, first.body).toBe(201);
    expectReplayOf(await upload('hello'), first);
    const other = await upload('hello, world');
    expect(other.statusCode).toBe(422);
    expect(errorBody(other).Code).toBe('IdempotencyKeyReused');
  });
});

describe('PATCH with an Idempotency-Key', () => {
  it('answers a retry with the stored answer even after the item changed since', async () => {
    const created = await postItem({ Title: 'Lamp', SKU: `SKU-${newKey()}` }, undefined);
    const url = created.headers.location as string;
    const key = newKey();
    const patch = (title: string, withKey = true) =>
      api.call({
        method: 'PATCH',
        url,
        tenant: acme,
        body: { Title: title },
        headers: withKey ? { 'idempotency-key': key } : {},
      });
    const first = await patch('Desk lamp');
    expect(first.statusCode).toBe(200);
    expect((await patch('Floor lamp', false)).statusCode).toBe(200);

    const retry = await patch('Desk lamp');
    expectReplayOf(retry, first);
    const current = await api.call({ url, tenant: acme });
    expect(current.json<{ Title: string }>().Title).toBe('Floor lamp');

    const reused = await patch('Table lamp');
    expect(reused.statusCode).toBe(422);
  });
});

describe('the Idempotency-Key header', () => {
  const refusedKeys: [string, string | string[]][] = [
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'a b'],
    ['not ASCII', 'clé'],
    ['an unterminated quote', '"abc'],
    ['an empty quoted string', '""'],
    ['a list', 'a, b'],
    ['sent twice', ['a', 'b']],
  ];
  for (const [what, value] of refusedKeys) {
    it(`is 400 InvalidIdempotencyKey when ${what}, and nothing runs`, async () => {
      const sku = `SKU-${newKey()}`;
      const response = await api.app.inject({
        method: 'POST',
        url: '/private/catalog/item',
        headers: {
          host: acme.host,
          authorization: `Bearer ${acme.token}`,
          'content-type': 'application/json',
          'idempotency-key': value,
        },
        payload: JSON.stringify({ Title: 'Lamp', SKU: sku }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).Code).toBe('InvalidIdempotencyKey');
      expect(await itemCount(acme, sku)).toBe(0);
    });
  }

  it('takes keys of 255 visible ASCII characters, and escapes in a quoted key', async () => {
    const long = `${'k'.repeat(250)}${newKey().slice(0, 5)}`;
    expect((await postItem({ Title: 'Lamp', SKU: `SKU-${long.slice(-5)}` }, long)).statusCode).toBe(
      201,
    );
    const quoted = `"a \\"quoted\\" key ${newKey()}"`;
    const sku = `SKU-${newKey()}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, quoted);
    expect(first.statusCode).toBe(201);
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, quoted), first);
  });

  it('is ignored on PUT, DELETE and GET (idempotent already) and on the token endpoint', async () => {
    const created = await postItem({ Title: 'Lamp', SKU: `SKU-${newKey()}` }, undefined);
    const url = created.headers.location as string;
    const put = await api.call({
      method: 'PUT',
      url,
      tenant: acme,
      body: { Title: 'Lamp 2' },
      headers: { 'idempotency-key': 'not a valid key' },
    });
    expect(put.statusCode).toBe(200);
    const get = await api.call({ url, tenant: acme, headers: { 'idempotency-key': '' } });
    expect(get.statusCode).toBe(200);

    // /oauth/token takes no app token to scope keys by: every request issues a token.
    const token = () =>
      api.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          host: acme.host,
          authorization: `Basic ${Buffer.from(`${acme.appId}:${acme.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': 'same-key',
        },
        payload: 'grant_type=client_credentials',
      });
    const [a, b] = [await token(), await token()];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json<{ access_token: string }>().access_token).not.toBe(
      b.json<{ access_token: string }>().access_token,
    );
  });
});

describe('expiry, pruning and crashed requests', () => {
  it('keeps a key for IDEMPOTENCY_KEY_TTL_SECONDS', async () => {
    const key = newKey();
    expect((await postItem({ Title: 'Lamp', SKU: `SKU-${key}` }, key)).statusCode).toBe(201);
    const [row] = await api.database.handle.query<{ seconds: number }>(
      'select extract(epoch from expires_at - created_at)::int as seconds from idempotency_keys where key = $1',
      [key],
    );
    expect(row!.seconds).toBe(TTL_SECONDS);
  });

  it('runs a request again once its key has expired', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(first.statusCode).toBe(201);
    await api.database.handle.query(
      "update idempotency_keys set expires_at = now() - interval '1 second' where key = $1",
      [key],
    );
    // An expired key answers nothing: the request runs (and meets the item it made before).
    const again = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(errorBody(again).Code).toBe('DuplicateSku');
  });

  it('prunes expired keys and keeps the others, from a job scheduled on the queue', async () => {
    const [expired, live] = [newKey(), newKey()];
    for (const key of [expired, live])
      expect((await postItem({ Title: 'Lamp', SKU: `SKU-${key}` }, key)).statusCode).toBe(201);
    await api.database.handle.query(
      "update idempotency_keys set expires_at = now() - interval '1 hour' where key = $1",
      [expired],
    );
    expect(await api.services.idempotency.prune()).toBeGreaterThanOrEqual(1);
    expect(await keyRows(expired)).toEqual([]);
    expect(await keyRows(live)).toHaveLength(1);
    const [schedule] = await api.database.handle.query<{ cron: string }>(
      'select cron from pgboss.schedule where name = $1',
      [IDEMPOTENCY_PRUNE_QUEUE],
    );
    expect(schedule?.cron).toBe('*/10 * * * *');
  });

  it('answers 409 while a request holds the key, and lets a retry take over a crashed one', async () => {
    const key = newKey();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(first.statusCode).toBe(201);
    // What a server that died mid-request leaves: a claim with no answer.
    await api.database.handle.query(
      "update idempotency_keys set status_code = null, headers = null, body = null, locked_until = now() + interval '1 minute' where key = $1",
      [key],
    );
    const running = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(running.statusCode).toBe(409);
    expect(errorBody(running).Code).toBe('IdempotencyKeyInUse');
    expect((await postItem({ Title: 'Other', SKU: sku }, key)).statusCode).toBe(422);

    await api.database.handle.query(
      "update idempotency_keys set locked_until = now() - interval '1 second' where key = $1",
      [key],
    );
    // Only the same request may take the key over; it runs again (and finds its item made).
    expect((await postItem({ Title: 'Other', SKU: sku }, key)).statusCode).toBe(422);
    const takenOver = await postItem({ Title: 'Lamp', SKU: sku }, key);
    expect(takenOver.statusCode).toBe(409);
    expect(errorBody(takenOver).Code).toBe('DuplicateSku');
    expect((await keyRows(key))[0]!.status_code).toBe(409);
  });
});

describe('the OpenAPI document', () => {
  it('lists Idempotency-Key as an optional header of POST and PATCH operations only', async () => {
    const document = (await api.call({ url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; in: string; required?: boolean }[];
            responses: Record<string, unknown>;
          }
        >
      >;
    }>();
    const header = (path: string, method: string) =>
      document.paths[path]?.[method]?.parameters?.find(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
    expect(header('/private/catalog/item', 'post')).toMatchObject({ required: false });
    expect(header('/private/catalog/item/{id}', 'patch')).toBeDefined();
    expect(document.paths['/private/catalog/item']!.post!.responses['422']).toBeDefined();
    expect(header('/private/catalog/item/{id}', 'put')).toBeUndefined();
    expect(header('/private/catalog/item/{id}', 'get')).toBeUndefined();
    expect(header('/oauth/token', 'post')).toBeUndefined();
    let posts = 0;
    for (const methods of Object.values(document.paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (method !== 'post' && method !== 'patch') continue;
        if (!operation.parameters?.some((p) => p.name === 'Idempotency-Key')) continue;
        posts++;
        expect(operation.responses['422']).toBeDefined();
      }
    expect(posts).toBeGreaterThan(20);
  });
});

describe('answers that are not stored', () => {
  // A server of its own with the idempotency hooks, a fixed principal (acme's bootstrap app) and
  // routes that fail on purpose, on the same database as the API.
  let server: FastifyInstance;
  let runs = 0;
  beforeAll(async () => {
    const tenantId = (await api.services.tenants.findByName('acme'))!.id;
    server = Fastify();
    registerErrorHandling(server);
    server.decorateRequest('principal', null as unknown as Principal);
    server.addHook('onRequest', (request, _reply, done) => {
      request.principal = {
        tenantId,
        appId: acme.appId,
        appTypeId: 3,
        scopes: new Set(['public', 'private', 'management']),
        jti: randomUUID(),
        expiresAt: Date.now() + 60_000,
      };
      done();
    });
    registerIdempotency(
      server,
      new IdempotencyStore(api.database.handle, { ttlSeconds: 60, leaseSeconds: 60 }),
    );
    server.post('/flaky', async (_request, reply) => {
      runs++;
      if (runs === 1) throw new Error('the first run fails');
      return reply.code(201).send({ Run: runs });
    });
    server.post('/stream', async (_request, reply) =>
      reply.type('text/plain').send(Readable.from(['streamed'])),
    );
    await server.ready();
  });
  afterAll(() => server?.close());

  const post = (url: string, key: string) =>
    server.inject({
      method: 'POST',
      url,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: '{}',
    });

  it('frees the key after a 5xx, so that a retry runs (and its answer is then kept)', async () => {
    const key = newKey();
    const failed = await post('/flaky', key);
    expect(failed.statusCode).toBe(500);
    expect(failed.json<{ Code: string }>().Code).toBe('InternalError');
    expect(await keyRows(key)).toEqual([]);
    const retry = await post('/flaky', key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual({ Run: 2 });
    const again = await post('/flaky', key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ Run: 2 });
    expect(runs).toBe(2);
  });

  it('frees the key of an answer sent as a stream', async () => {
    const key = newKey();
    const streamed = await post('/stream', key);
    expect(streamed.statusCode).toBe(200);
    expect(streamed.body).toBe('streamed');
    expect(await keyRows(key)).toEqual([]);
  });
});
