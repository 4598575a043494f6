// One Citus worker unreachable (docs/operations.md, "Fault isolation"): the tenants on the other
// worker keep full service (reads, writes, an upload, a new token, a webhook delivery, and a
// server started meanwhile), the tenants on the unreachable one get 503 with Retry-After (never
// a 500), and they are served again as soon as it answers, with no restart of the server.
//
// The shared cluster is never stopped (other runs use it at the same time): in this file's own
// database, one worker is reached through a TCP proxy on loopback (`citus_update_node` points this
// database's metadata, and the copy of it on the workers, at the proxy), and cutting the proxy
// takes that worker away from this database alone. Runs when the suite's database is a Citus
// coordinator.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/module-wiring.ts';
import { checkInjectedAnswers } from '../support/openapi-answers.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import {
  basicAuth,
  LogLines,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../support/test-api.ts';
import { WebhookReceiver } from '../modules/events/webhook-receiver-fixtures.ts';
import { png, uploadRaw } from '../modules/storage/storage-fixtures.ts';

const source = inject('testDatabase');
const citus = source.engine === 'postgres' && source.citusWorkers !== undefined;

interface Node {
  nodeId: number;
  host: string;
  port: number;
}

let api: TestApi;
let dataDir: string;
let proxy: TcpProxy | undefined;
let cutNode: Node | undefined;
const receiver = new WebhookReceiver();
/** The tenant on the worker that stays reachable, and the one on the worker that is cut. */
let near: TestTenant;
let far: TestTenant;

/** The node that holds the tenant's shards. */
async function nodeOf(tenantName: string): Promise<Node> {
  const tenantId = (await api.services.tenants.findByName(tenantName))!.id;
  const [row] = await api.database.handle.query<Node>(
    `select n.nodeid as "nodeId", n.nodename as host, n.nodeport as port
       from pg_dist_placement p join pg_dist_node n on n.groupid = p.groupid
      where p.shardid = get_shard_id_for_distribution_column('items', $1::int)`,
    [tenantId],
  );
  return row!;
}

beforeAll(async () => {
  if (!citus) return;
  const receiverPort = await receiver.start();
  dataDir = await mkdtemp(path.join(tmpdir(), 'omni-fault-isolation-'));
  api = await startTestApi({
    DATA_DIR: dataDir,
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
  });
  // Tenants until one lands on the other worker than the first (ids hash to shards).
  near = await api.createTenant('near');
  const nearNode = await nodeOf('near');
  for (let n = 1; n <= 12 && !far; n++) {
    const tenant = await api.createTenant(`far${n}`);
    if ((await nodeOf(tenant.name)).nodeId !== nearNode.nodeId) far = tenant;
  }
  if (!far) throw new Error('no tenant landed on the second worker');
  cutNode = await nodeOf(far.name);
  proxy = await startTcpProxy(cutNode.host, cutNode.port);
  await api.database.handle.query('select citus_update_node($1, $2, $3)', [
    cutNode.nodeId,
    '127.0.0.1',
    proxy.port,
  ]);
  for (const tenant of [near, far])
    expectStatus(
      await api.call({
        method: 'POST',
        url: '/management/webhooks',
        tenant,
        body: { Url: `http://127.0.0.1:${receiverPort}/${tenant.name}`, EventTypes: ['item.*'] },
      }),
      201,
    );
}, 300_000);

afterAll(async () => {
  if (!citus) return;
  await proxy?.restore();
  if (cutNode)
    await api.database.handle
      .query('select citus_update_node($1, $2, $3)', [cutNode.nodeId, cutNode.host, cutNode.port])
      .catch(() => undefined);
  await api?.close();
  await proxy?.close();
  await receiver.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function expectStatus(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, `${response.statusCode} ${response.body}`).toBe(status);
}

/** 503 with Retry-After: what a client retries. */
function expectUnavailable(response: LightMyRequestResponse, what: string): void {
  expect(response.statusCode, `${what}: ${response.statusCode} ${response.body}`).toBe(503);
  expect(response.headers['retry-after'], what).toBeDefined();
}

const token = (tenant: TestTenant) =>
  api.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      host: tenant.host,
      authorization: basicAuth(tenant.appId, tenant.secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });

const createItem = (tenant: TestTenant, sku: string) =>
  api.call({
    method: 'POST',
    url: '/private/catalog/item',
    tenant,
    body: { Title: `Item ${sku}`, SKU: sku },
  });

/** The SKUs of the tenant's items created whose webhooks came so far. */
const deliveredSkus = (tenant: TestTenant) =>
  receiver
    .events()
    .filter((event) => event.Type === 'item.created' && event.TenantId === tenant.name)
    .map((event) => String(event.Data.SKU));

async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(citus)('one Citus worker unreachable', () => {
  it('leaves the tenants of the other worker their full service, and 503s to its own', async () => {
    // Before the cut, both tenants are served.
    const nearItem = await createItem(near, 'near-1');
    expectStatus(nearItem, 201);
    const farItem = await createItem(far, 'far-1');
    expectStatus(farItem, 201);
    const farItemId = farItem.json<{ Id: number }>().Id;
    await eventually('the webhooks of before the cut', async () =>
      deliveredSkus(near).includes('near-1') && deliveredSkus(far).includes('far-1')
        ? true
        : undefined,
    );

    await proxy!.cut();

    // The near tenant: reads, writes, an upload, a new token and a webhook.
    const nearId = nearItem.json<{ Id: number }>().Id;
    expectStatus(await api.call({ url: `/private/catalog/item/${nearId}`, tenant: near }), 200);
    expectStatus(await createItem(near, 'near-2'), 201);
    const upload = await uploadRaw(api, near, png(4, 4), 'image/png', 'during-the-cut.png');
    expectStatus(upload, 201);
    const asset = upload.json<{ AssetUrl: string }>();
    const served = await api.app.inject({
      method: 'GET',
      url: new URL(asset.AssetUrl).pathname,
      headers: { host: near.host },
    });
    expectStatus(served, 200);
    const issued = await token(near);
    expectStatus(issued, 200);
    const fresh = issued.json<{ access_token: string }>().access_token;
    expectStatus(
      await api.call({ url: `/private/catalog/item/${nearId}`, tenant: near, token: fresh }),
      200,
    );
    await eventually('the near tenant’s webhook during the cut', async () =>
      deliveredSkus(near).includes('near-2') ? true : undefined,
    );

    // The far tenant: 503 with Retry-After, never a 500.
    expectUnavailable(
      await api.call({ url: `/private/catalog/item/${farItemId}`, tenant: far }),
      'a read',
    );
    expectUnavailable(await createItem(far, 'far-2'), 'a write');
    expectUnavailable(await uploadRaw(api, far, png(5, 5), 'image/png', 'x.png'), 'an upload');
    expectUnavailable(await token(far), 'a token');
    // Still so a little later (nothing gave up on the near tenant meanwhile either).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expectUnavailable(await createItem(far, 'far-3'), 'a write again');
    expectStatus(await createItem(near, 'near-3'), 201);
    await eventually('the near tenant’s next webhook', async () =>
      deliveredSkus(near).includes('near-3') ? true : undefined,
    );
    // A server started meanwhile serves the near tenant too.
    const second = await buildApp(createServices(api.config, api.database.handle), {
      logStream: new LogLines(),
    });
    try {
      checkInjectedAnswers(second);
      await second.ready();
      const issuedThere = await second.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          host: near.host,
          authorization: basicAuth(near.appId, near.secret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'grant_type=client_credentials',
      });
      expectStatus(issuedThere, 200);
      const read = await second.inject({
        method: 'GET',
        url: `/private/catalog/item/${nearId}`,
        headers: {
          host: near.host,
          accept: 'application/vnd.xomni.api-v4-0',
          authorization: `Bearer ${issuedThere.json<{ access_token: string }>().access_token}`,
        },
      });
      expectStatus(read, 200);
    } finally {
      await second.close();
    }

    // The worker answers again: the far tenant is served at once, the same server, its
    // webhooks too.
    await proxy!.restore();
    await eventually('the far tenant served again', async () => {
      const read = await api.call({ url: `/private/catalog/item/${farItemId}`, tenant: far });
      if (read.statusCode === 503) return undefined;
      expectStatus(read, 200);
      return true;
    });
    expectStatus(await createItem(far, 'far-4'), 201);
    expectStatus(await token(far), 200);
    expectStatus(await uploadRaw(api, far, png(5, 5), 'image/png', 'after.png'), 201);
    await eventually('the far tenant’s webhook after the restore', async () =>
      deliveredSkus(far).includes('far-4') ? true : undefined,
    );
    expect(deliveredSkus(far)).not.toContain('far-2');
    expect(api.logs.text()).not.toMatch(/"statusCode":500/);
  }, 300_000);
});
