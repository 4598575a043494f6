// npm run bench:webhook-latency: how long after a write its webhook arrives, on an idle server
// with the default settings (docs/design.md, "First-delivery latency").
//
// Starts the server (its own process, default webhook and job settings), subscribes a receiver
// on loopback to item.updated, then BENCH_WRITES times (default 40) updates one item and times from
// the write's answer to the delivery's arrival, waiting a random 0.5–3 s between writes so that
// writes fall anywhere in the dispatcher's polling cycle and the server is idle in between.
// Prints p50, p99 and the maximum, and writes them to bench/results/webhook-latency.json.
// BENCH_DATABASE_URL=postgres://… measures on PostgreSQL (a database of its own is made there
// and dropped), else on a new embedded database. BENCH_ELSEWHERE_SECONDS=10 (PostgreSQL) keeps a
// transaction running that long at a time, one after the other, in BENCH_DATABASE_URL's own
// database: another database of the same server, as a test suite, a bulk load or another
// application would.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  call,
  clientToken,
  createTenant,
  freePort,
  serverEnv,
  startServer,
  stop,
} from './processes.ts';

const WRITES = Number(process.env.BENCH_WRITES ?? 40);
const ADMIN_URL = process.env.BENCH_DATABASE_URL;
const ACCEPT = 'application/vnd.xomni.api-v4-0';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Deliveries by the item title they carry, resolved when they arrive. */
const arrivals = new Map<string, (at: number) => void>();
const receiver = createHttpServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const at = performance.now();
    const name = (JSON.parse(body) as { Data?: { Title?: string } }).Data?.Title;
    if (name) arrivals.get(name)?.(at);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as AddressInfo).port;

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-webhook-latency-'));
const database = `omni_webhook_latency_${process.pid}`;
let databaseUrl: string | undefined;
if (ADMIN_URL) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${database}`);
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
}
const ELSEWHERE_SECONDS = Number(process.env.BENCH_ELSEWHERE_SECONDS ?? 0);
let elsewhereRuns = ADMIN_URL !== undefined && ELSEWHERE_SECONDS > 0;
const elsewhere = elsewhereRuns
  ? (async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      while (elsewhereRuns) {
        await client.query('begin');
        await client.query('select pg_current_xact_id()');
        await client.query('select pg_sleep($1)', [ELSEWHERE_SECONDS]);
        await client.query('commit');
      }
      await client.end();
    })()
  : Promise.resolve();
const port = await freePort();
const env = serverEnv(port, dataDir, {
  LOG_LEVEL: 'warn',
  DATABASE_URL: databaseUrl ?? '',
  WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
});
// Made before the server starts: the embedded database is one process's.
const app = await createTenant('latency', env);
const server = await startServer(port, env).catch(async (error: unknown) => {
  receiver.close();
  throw error;
});
try {
  const host = `latency.localhost:${port}`;
  const token = await clientToken(port, host, app.ApplicationId, app.ApplicationSecret);
  const headers = {
    host,
    accept: ACCEPT,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  const item = await call(
    port,
    'POST',
    '/private/catalog/item',
    headers,
    JSON.stringify({ Title: 'w-0', SKU: 'LATENCY-1', ItemStatusId: 1 }),
  );
  const itemId = (JSON.parse(item.body) as { Id: number }).Id;
  const subscribed = await call(
    port,
    'POST',
    '/management/webhooks',
    headers,
    JSON.stringify({
      Url: `http://127.0.0.1:${receiverPort}/hook`,
      EventTypes: ['item.updated'],
    }),
  );
  if (subscribed.status !== 201)
    throw new Error(`subscribe: ${subscribed.status} ${subscribed.body}`);

  const latencies: number[] = [];
  for (let i = 1; i <= WRITES; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 2500));
    const name = `w-${i}`;
    const arrived = new Promise<number>((resolve) => arrivals.set(name, resolve));
    const written = await call(
      port,
      'PUT',
      `/private/catalog/item/${itemId}`,
      headers,
      JSON.stringify({ Title: name, SKU: 'LATENCY-1', ItemStatusId: 1 }),
    );
    const answeredAt = performance.now();
    if (written.status !== 200) throw new Error(`write: ${written.status} ${written.body}`);
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`delivery of ${name} not received in 60 s`)), 60_000),
    );
    latencies.push(Math.max(0, (await Promise.race([arrived, timeout])) - answeredAt));
    arrivals.delete(name);
    process.stdout.write(`${i}/${WRITES}: ${Math.round(latencies.at(-1)!)} ms\n`);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = {
    engine: ADMIN_URL ? 'postgresql' : 'pglite',
    elsewhereSeconds: ELSEWHERE_SECONDS,
    writes: WRITES,
    p50Ms: Math.round(percentile(sorted, 50)),
    p99Ms: Math.round(percentile(sorted, 99)),
    maxMs: Math.round(sorted.at(-1)!),
    latenciesMs: latencies.map(Math.round),
  };
  console.log(
    `${result.engine}${ELSEWHERE_SECONDS ? ` (a ${ELSEWHERE_SECONDS} s transaction at a time in another database)` : ''}: first delivery after the write p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms (${WRITES} writes)`,
  );
  const resultsDir = path.join(import.meta.dirname, 'results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(
    path.join(resultsDir, 'webhook-latency.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  elsewhereRuns = false;
  await elsewhere;
  await stop(server);
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
  if (ADMIN_URL) {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}
