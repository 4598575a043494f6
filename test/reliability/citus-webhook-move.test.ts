// Webhooks through a shard move (docs/reliability.md, "Webhooks through a shard move"): a
// tenant's shard group is moved to the other Citus worker and back, online
// (citus_move_shard_placement), while its items are renamed without pause through two API
// instances (PATCH with an Idempotency-Key, and PUT), with a subscription to item events. Every
// rename that got a 2xx reaches the receiver once (no event lost, none twice: the receiver always
// answers 204 within the timeout and no server dies, so docs/api.md allows no redelivery here),
// each item's in the order they were acknowledged, and every other answer is a documented
// retryable one (503 with Retry-After), sent again as it was.
//
// Both directions matter: events are recorded by triggers on the worker that holds the shard,
// whose ids come from that worker's own sequence range (g × 2^48 for worker group g), so moving
// to a worker of a lower group makes a resource's next events' ids lower than its last ones'.
// The second move and move back are made with every dispatcher stopped, so that events of both
// workers are there together before anything reads the feed: with the dispatchers running, they
// are placed a few ms after they commit and the moves rarely fall in that window.
// Runs when the suite's database is a Citus coordinator.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import {
  CONNECTION_OPTIONS,
  wrapPool,
  type DatabaseHandle,
} from '../../src/db/connection/database.ts';
import { createServices } from '../../src/module-wiring.ts';
import { checkInjectedAnswers } from '../support/openapi-answers.ts';
import { LogLines, startTestApi, type TestApi, type TestTenant } from '../support/test-api.ts';
import { WebhookReceiver } from '../modules/events/webhook-receiver-fixtures.ts';

const source = inject('testDatabase');
const citus = source.engine === 'postgres' && source.citusWorkers !== undefined;

/** Items renamed at once, each by a writer of its own. */
const ITEMS = 6;

let api: TestApi;
/** A second instance on the same database: its own pool, dispatcher and listening connection. */
let second: FastifyInstance | undefined;
let secondServices: ReturnType<typeof createServices> | undefined;
let secondHandle: DatabaseHandle | undefined;
const secondLogs = new LogLines();
let acme: TestTenant;
let tenantId: number;
const receiver = new WebhookReceiver();
/** Moves made again because the last move's leftovers on the target were not dropped yet. */
let orphanRetries = 0;

beforeAll(async () => {
  if (!citus) return;
  const receiverPort = await receiver.start();
  const env = {
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
    // A slow machine never turns a 204 into a timeout, and so into a documented retry.
    WEBHOOK_TIMEOUT_SECONDS: '60',
  };
  api = await startTestApi(env);
  const pool = new pg.Pool({
    connectionString: api.database.url,
    max: 5,
    options: CONNECTION_OPTIONS,
  });
  pool.on('error', () => {});
  secondHandle = wrapPool(pool, api.database.url);
  secondServices = createServices(api.config, secondHandle);
  second = await buildApp(secondServices, { logStream: secondLogs });
  checkInjectedAnswers(second);
  await second.ready();
  acme = await api.createTenant('acme');
  await api.createTenant('globex');
  tenantId = (await api.services.tenants.findByName('acme'))!.id;
  const subscribed = await api.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant: acme,
    body: { Url: `http://127.0.0.1:${receiverPort}/acme`, EventTypes: ['item.*'] },
  });
  expect(subscribed.statusCode, subscribed.body).toBe(201);
}, 300_000);

afterAll(async () => {
  if (!citus) return;
  await second?.close();
  await secondHandle?.close();
  await api?.close();
  await receiver.stop();
});

interface Placement {
  shardId: string;
  host: string;
  port: number;
  groupId: number;
}

/** Where the tenant's items shard is (its shard group moves with it), and which shard it is. */
async function placementOf(tenant: number): Promise<Placement> {
  const [row] = await api.database.handle.query<Placement>(
    `select s.shardid::text as "shardId", n.nodename as host, n.nodeport as port, n.groupid as "groupId"
       from (select get_shard_id_for_distribution_column('items', $1::int) as shardid) s
       join pg_dist_placement p on p.shardid = s.shardid
       join pg_dist_node n on n.groupid = p.groupid`,
    [tenant],
  );
  return row!;
}

async function moveTo(from: Placement, to: { host: string; port: number }): Promise<Placement> {
  for (let attempt = 1; ; attempt++) {
    try {
      await api.database.handle.query(
        `select citus_move_shard_placement($1::bigint, $2, $3, $4, $5, shard_transfer_mode => 'auto')`,
        [from.shardId, from.host, from.port, to.host, to.port],
      );
      return await placementOf(tenantId);
    } catch (error) {
      // A move back finds the copy the last move left on its target (Citus drops it later, once
      // no transaction holds it) and fails if it cannot drop it yet: the move is made again once
      // the leftovers are cleaned up, as an operator would.
      if (attempt >= 20 || !/orphaned shard .* could not be cleaned up/.test(String(error)))
        throw error;
      orphanRetries++;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await api.database.handle
        .query('call citus_cleanup_orphaned_resources()')
        .catch(() => undefined);
    }
  }
}

/** A request to one of the two instances, with acme's token. */
function callOn(
  instance: FastifyInstance,
  method: 'PATCH' | 'PUT',
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return instance.inject({
    method,
    url,
    headers: {
      host: acme.host,
      accept: 'application/vnd.xomni.api-v4-0',
      authorization: `Bearer ${acme.token}`,
      'content-type': 'application/json',
      ...headers,
    },
    payload: JSON.stringify(body),
  });
}

/**
 * Renames each item without pause until stopped, every request sent to the two instances in
 * turn: what each was told.
 */
function startRenamers(items: { id: number; sku: string }[]) {
  /** Per item id, the titles acknowledged, in order. */
  const acknowledged = new Map<number, string[]>(items.map(({ id }) => [id, []]));
  const answers = new Map<string, number>();
  const unexpected: string[] = [];
  let writing = true;
  let sent = 0;
  const renamer = async ({ id, sku }: { id: number; sku: string }) => {
    for (let n = 1; writing; n++) {
      const title = `${sku} r${n}`;
      // PUT has no Idempotency-Key (docs/api.md: it is idempotent already); sent again as it was.
      const put = n % 4 === 0;
      const key = randomUUID();
      for (let attempt = 0; ; attempt++) {
        const instance = sent++ % 2 === 0 ? api.app : second!;
        const response = put
          ? await callOn(
              instance,
              'PUT',
              `/private/catalog/item/${id}`,
              { Title: title, SKU: sku },
              {},
            )
          : await callOn(
              instance,
              'PATCH',
              `/private/catalog/item/${id}`,
              { Title: title },
              { 'idempotency-key': key },
            );
        const status = `${put ? 'PUT' : 'PATCH'} ${response.statusCode}`;
        answers.set(status, (answers.get(status) ?? 0) + 1);
        if (response.statusCode === 200) {
          acknowledged.get(id)!.push(title);
          break;
        }
        if (response.statusCode !== 503 || !response.headers['retry-after'] || attempt >= 100) {
          unexpected.push(`${status} ${response.body}`);
          writing = false;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const done = Promise.all(items.map(renamer));
  return {
    acknowledged,
    answers,
    unexpected,
    async stop() {
      writing = false;
      await done;
    },
  };
}

interface Delivered {
  webhookId: string;
  id: string;
  type: string;
  resourceId: string;
  title: string;
}

/** What the receiver got for acme's items, in the order it got it. */
function delivered(): Delivered[] {
  return receiver.received.map((r) => {
    const event = JSON.parse(r.body) as {
      Id: string;
      Type: string;
      ResourceId: string;
      Data: { Title: string };
    };
    return {
      webhookId: String(r.headers['webhook-id']),
      id: event.Id,
      type: event.Type,
      resourceId: event.ResourceId,
      title: event.Data.Title,
    };
  });
}

describe.runIf(citus)('webhooks of a tenant moved while it writes', () => {
  it('delivers every acknowledged rename once and in order through two moves and two moves back', async () => {
    const items: { id: number; sku: string }[] = [];
    for (let n = 0; n < ITEMS; n++) {
      const sku = `HOOK-${n}`;
      const created = await api.call({
        method: 'POST',
        url: '/private/catalog/item',
        tenant: acme,
        body: { Title: `${sku} r0`, SKU: sku },
      });
      expect(created.statusCode, created.body).toBe(201);
      items.push({ id: created.json<{ Id: number }>().Id, sku });
    }
    await expect
      .poll(() => delivered().filter((d) => d.type === 'item.created').length, {
        timeout: 120_000,
        interval: 200,
      })
      .toBe(ITEMS);

    const before = await placementOf(tenantId);
    const workers = source.engine === 'postgres' ? source.citusWorkers! : [];
    const other = workers.find((w) => w.port !== before.port || w.host !== before.host)!;

    const pause = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    const dispatchers = [api.services.events.dispatcher, secondServices!.events.dispatcher];
    const renamers = startRenamers(items);
    let moved, back, movedAgain, backAgain;
    try {
      await pause();
      // With the dispatchers running: events get their feed positions a few ms after they commit.
      moved = await moveTo(before, other);
      await pause();
      back = await moveTo(moved, before);
      await pause();
      // With every dispatcher stopped (a deploy, say) across a move and a move back, the renames
      // going on: nothing but the writes themselves places events meanwhile, so events recorded
      // on both workers would wait together for their positions.
      await Promise.all(dispatchers.map((d) => d.stop()));
      await pause();
      movedAgain = await moveTo(back, other);
      await pause();
      backAgain = await moveTo(movedAgain, before);
      await pause();
    } finally {
      for (const d of dispatchers) d.start();
      await pause();
      await renamers.stop();
    }

    expect(renamers.unexpected).toEqual([]);
    for (const [at, where] of [
      [moved, other],
      [back, before],
      [movedAgain, other],
      [backAgain, before],
    ] as const)
      expect({ host: at.host, port: at.port }).toEqual({ host: where.host, port: where.port });

    const acknowledgedCount = [...renamers.acknowledged.values()].reduce(
      (sum, titles) => sum + titles.length,
      0,
    );
    // Every item's last acknowledged title has come (each item's events come in order, so the
    // earlier ones have come by then, or are lost), and nothing more is on its way.
    await expect
      .poll(
        () => {
          const got = new Set(delivered().map((d) => `${d.resourceId} ${d.title}`));
          return items.filter(({ id }) => {
            const last = renamers.acknowledged.get(id)!.at(-1);
            return last !== undefined && !got.has(`${id} ${last}`);
          }).length;
        },
        { timeout: 300_000, interval: 500 },
      )
      .toBe(0);
    await Promise.all(dispatchers.map((d) => d.drain()));
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const all = delivered();
    const byWebhookId = Map.groupBy(all, (d) => d.webhookId);
    const redelivered = [...byWebhookId].filter(([, copies]) => copies.length > 1);
    expect(redelivered.map(([webhookId]) => webhookId)).toEqual([]);
    for (const d of all) expect(d.webhookId, 'webhook-id is the event Id').toBe(d.id);

    for (const { id } of items) {
      const updates = all.filter((d) => d.resourceId === String(id) && d.type === 'item.updated');
      // Exactly the acknowledged titles, each once, in the order they were acknowledged.
      expect(
        updates.map((d) => d.title),
        `item ${id}`,
      ).toEqual(renamers.acknowledged.get(id));
      // Ids sort in feed order (docs/api.md): each item's are in the order they came.
      const ids = updates.map((d) => d.id);
      expect(ids, `item ${id}: event Ids in feed order`).toEqual([...ids].sort());
    }
    expect(acknowledgedCount).toBeGreaterThan(0);
    expect(api.logs.text()).not.toMatch(/"statusCode":500/);
    expect(secondLogs.text()).not.toMatch(/"statusCode":500/);

    console.log(
      `webhook move: worker groups ${before.groupId} → ${moved.groupId} → ${back.groupId} → ${movedAgain.groupId} → ${backAgain.groupId} (the last two with the dispatchers stopped; ${orphanRetries} moves made again after a leftover of the last one); ${acknowledgedCount} renames acknowledged, ${all.filter((d) => d.type === 'item.updated').length} updates delivered (${all.length} webhooks in all, ${byWebhookId.size} distinct); answers ${JSON.stringify(Object.fromEntries(renamers.answers))}`,
    );
  }, 900_000);
});
