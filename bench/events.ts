// npm run bench:events: what events and webhooks cost on the item write path, and how fast
// deliveries go out. Run it alone on the machine: `flock /tmp/omni-bench.lock npm run bench:events`.
//
// Seeds a tenant with BENCH_ITEMS items (default 2,000), starts the server (its own process)
// and measures `PUT /private/catalog/item/{id}` (a random item, a new title) with autocannon
// in rounds (BENCH_ROUNDS, default 3; BENCH_DURATION seconds, default 10; BENCH_CONNECTIONS,
// default 10), each round:
//   - on PostgreSQL only, with the event triggers of items disabled (the write without events);
//   - with events recorded and no subscription;
//   - with a subscription to item.* delivering to a receiver on loopback (which answers 204), so
//     the dispatcher sends while the writes go on.
// Then the delivery throughput: the replay of every event of the last subscribed phase queues
// one delivery each at once; the rate is deliveries received per second until the last.
// BENCH_DATABASE_URL=postgres://… benches on PostgreSQL, else on the embedded database.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  call,
  clientToken,
  createTenant,
  freePort,
  runNode as run,
  startServer,
  serverEnv,
  stop,
} from './processes.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ITEMS = process.env.BENCH_ITEMS ?? '2000';
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const ACCEPT = 'application/vnd.xomni.api-v4-0';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The receiver: counts deliveries and answers 204.
let received = 0;
const receiver = createHttpServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as AddressInfo).port;

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-events-bench-'));
const port = await freePort();
const env = serverEnv(port, dataDir, {
  LOG_LEVEL: 'warn',
  BENCH_ITEMS: ITEMS,
  WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
  WEBHOOK_POLLING_INTERVAL_MS: '200',
});
const tenant = `evbench${Date.now().toString(36)}`;
let server: ChildProcess | undefined;
const admin = DATABASE_URL ? new pg.Client({ connectionString: DATABASE_URL }) : undefined;
try {
  const app = await createTenant(tenant, env);
  const seeded = JSON.parse(await run(['bench/seed-catalog.ts', tenant], env)) as {
    minItemId: number;
    maxItemId: number;
  };
  server = await startServer(port, env);
  const host = `${tenant}.localhost:${port}`;
  const token = await clientToken(port, host, app.ApplicationId, app.ApplicationSecret);
  const headers = {
    host,
    accept: ACCEPT,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  const api = (method: string, urlPath: string, body?: unknown) =>
    call(port, method, urlPath, headers, body === undefined ? undefined : JSON.stringify(body));

  let counter = 0;
  const measurePut = async (name: string) => {
    process.stderr.write(`measuring ${name} …\n`);
    const options = (duration: number) => ({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'PUT' as const,
          headers,
          setupRequest: (req: autocannon.Request) => {
            const id =
              seeded.minItemId +
              Math.floor(Math.random() * (seeded.maxItemId - seeded.minItemId + 1));
            return {
              ...req,
              path: `/private/catalog/item/${id}`,
              body: JSON.stringify({ Title: `Item ${counter++}` }),
            };
          },
        },
      ],
    });
    await autocannon(options(Math.min(3, DURATION)));
    const result = await autocannon(options(DURATION));
    if (result.non2xx || result.errors)
      throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return {
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
    };
  };

  await admin?.connect();
  const setTriggers = async (enabled: boolean) => {
    for (const op of ['inserted', 'updated', 'deleted'])
      await admin!.query(
        `alter table items ${enabled ? 'enable' : 'disable'} trigger items_events_${op}`,
      );
  };

  const phases: Record<string, { rps: number; p50: number; p99: number }[]> = {};
  const record = (name: string, figures: { rps: number; p50: number; p99: number }) =>
    (phases[name] ??= []).push(figures);
  let subscriptionId = 0;
  let phaseStart = '';
  let phaseEnd = '';
  for (let round = 0; round < ROUNDS; round++) {
    if (admin) {
      await setTriggers(false);
      record('item PUT, no event triggers', await measurePut('item PUT without events'));
      await setTriggers(true);
    }
    record(
      'item PUT, events, no subscription',
      await measurePut('item PUT with events, no subscription'),
    );
    const created = await api('POST', '/management/webhooks', {
      Url: `http://127.0.0.1:${receiverPort}/hook`,
      EventTypes: ['item.*'],
    });
    if (created.status !== 201) throw new Error(`subscription: ${created.status} ${created.body}`);
    subscriptionId = (JSON.parse(created.body) as { Id: number }).Id;
    phaseStart = new Date().toISOString();
    record(
      'item PUT, events, a subscription delivering',
      await measurePut('item PUT with a subscription'),
    );
    phaseEnd = new Date().toISOString();
    // The backlog drains before the next round; then the subscription goes.
    for (let i = 0; i < 600; i++) {
      const pending = await api(
        'GET',
        `/management/webhooks/${subscriptionId}/deliveries?status=Pending&take=1`,
      );
      if ((JSON.parse(pending.body) as { TotalCount: number }).TotalCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (round < ROUNDS - 1) await api('DELETE', `/management/webhooks/${subscriptionId}`);
  }

  // Delivery throughput: every event of the last subscribed phase again, queued at once.
  const before = received;
  const replay = await api('POST', `/management/webhooks/${subscriptionId}/replay`, {
    From: phaseStart,
    To: phaseEnd,
  });
  const { Replayed } = JSON.parse(replay.body) as { Replayed: number };
  const started = performance.now();
  while (received - before < Replayed) {
    if (performance.now() - started > 600_000)
      throw new Error('deliveries did not end within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;

  console.log(
    `\nengine: ${DATABASE_URL ? 'postgres' : 'pglite'}, ${ITEMS} items, ${ROUNDS} rounds × ${DURATION} s, ${CONNECTIONS} connections`,
  );
  console.log('| scenario | req/s (median) | rounds | p50 ms | p99 ms |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, runs] of Object.entries(phases)) {
    const mid = median(runs.map((r) => r.rps));
    const at = runs.find((r) => r.rps === mid)!;
    console.log(
      `| ${name} | ${mid} | ${runs.map((r) => r.rps).join(' ')} | ${at.p50} | ${at.p99} |`,
    );
  }
  console.log(
    `\ndelivery throughput: ${Replayed} deliveries to a loopback receiver in ${seconds.toFixed(1)} s = ${Math.round(Replayed / seconds)} deliveries/s (WEBHOOK_CONCURRENCY ${process.env.WEBHOOK_CONCURRENCY ?? 8})`,
  );
} finally {
  await admin?.end();
  if (server) await stop(server);
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
