// The soak (`BENCH_ONLY=soak npm run bench`): one server under a mixed read/write/search/ingest
// load for BENCH_SOAK_SECONDS (600 by default), sampling the server's RSS every 10 s. It passes
// when no request errs or answers a non-2xx and the RSS at the end is within 10 % of the RSS
// after the first minute (warm-up allocations are not a leak). Results go to
// bench/results/soak.json. Not in CI: it takes ten minutes.
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { apiBatch } from './analytics-rows.ts';
import {
  clientToken,
  createTenant,
  freePort,
  runNode,
  startServer,
  serverEnv,
  stop,
} from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const SAMPLE_MS = 10_000;
const accept = 'application/vnd.xomni.api-v4-0';

async function rssMegabytes(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round(kilobytes / 1024);
}

/** The mix, by weight: what a busy tenant's integrators and devices do at once. */
function mixedRequest(host: string, token: string, appId: string, minId: number, maxId: number) {
  const headers = { host, accept, authorization: `Bearer ${token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const item = () => minId + Math.floor(Math.random() * (maxId - minId + 1));
  // 100-record batches dated now: a soak runs longer than a batch may lag behind the clock.
  const batch = () => JSON.stringify(apiBatch(Math.floor(Math.random() * 1000)).slice(0, 100));
  const kinds: [number, () => autocannon.Request][] = [
    [35, () => ({ method: 'GET', path: `/private/catalog/item/${item()}`, headers })],
    [10, () => ({ method: 'GET', path: '/private/catalog/items?skip=0&take=50', headers })],
    [5, () => ({ method: 'GET', path: `/management/oauth/apps/${appId}`, headers })],
    [
      15,
      () => ({
        method: 'POST',
        path: '/private/catalog/items',
        headers: json,
        body: JSON.stringify({
          Query: ['shirt', 'shoe', 'hat', 'bag', 'watch'][Math.floor(Math.random() * 5)],
          Take: 20,
          IncludeStaticNavigation: true,
        }),
      }),
    ],
    [
      20,
      () => ({
        method: 'PATCH',
        path: `/private/catalog/item/${item()}`,
        headers: json,
        body: JSON.stringify({ Title: `Product soak ${Math.random().toString(36).slice(2)}` }),
      }),
    ],
    [15, () => ({ method: 'POST', path: '/analytics/logs', headers: json, body: batch() })],
  ];
  const total = kinds.reduce((sum, [weight]) => sum + weight, 0);
  return (request: autocannon.Request): autocannon.Request => {
    let pick = Math.random() * total;
    for (const [weight, make] of kinds) {
      pick -= weight;
      if (pick < 0) return { ...request, ...make() };
    }
    return { ...request, ...kinds[0]![1]() };
  };
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-soak-'));
const port = await freePort();
const env = serverEnv(port, dataDir, { BENCH_ITEMS: String(ITEMS) });
const tenantName = `soak${Date.now().toString(36)}`;
let child: ChildProcess | undefined;
try {
  const app = await createTenant(tenantName, env);
  const seeded = JSON.parse(await runNode(['bench/seed-catalog.ts', tenantName], env)) as {
    minItemId: number;
    maxItemId: number;
  };
  child = await startServer(port, env);
  const host = `${tenantName}.localhost:${port}`;
  const token = await clientToken(port, host, app.ApplicationId, app.ApplicationSecret);

  const samples: { second: number; rssMb: number }[] = [];
  const startedAt = Date.now();
  samples.push({ second: 0, rssMb: await rssMegabytes(child) });
  const sampler = setInterval(() => {
    void rssMegabytes(child!).then((rssMb) =>
      samples.push({ second: Math.round((Date.now() - startedAt) / 1000), rssMb }),
    );
  }, SAMPLE_MS);
  process.stderr.write(`soak: ${SECONDS} s, ${CONNECTIONS} connections, ${ITEMS} items\n`);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: mixedRequest(
          host,
          token,
          app.ApplicationId,
          seeded.minItemId,
          seeded.maxItemId,
        ),
      },
    ],
  });
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  clearInterval(sampler);
  samples.push({ second: SECONDS, rssMb: await rssMegabytes(child) });

  const afterFirstMinute = samples.find((s) => s.second >= 60) ?? samples[1] ?? samples[0]!;
  const end = samples.at(-1)!;
  const growth = (end.rssMb - afterFirstMinute.rssMb) / afterFirstMinute.rssMb;
  const summary = {
    engine: DATABASE_URL ? 'postgres' : 'pglite',
    seconds: SECONDS,
    connections: CONNECTIONS,
    items: ITEMS,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    rssMb: {
      beforeLoad: samples[0]!.rssMb,
      afterFirstMinute: afterFirstMinute.rssMb,
      end: end.rssMb,
      max: Math.max(...samples.map((s) => s.rssMb)),
    },
    rssGrowthAfterFirstMinute: Number(growth.toFixed(3)),
    samples,
  };
  const passed = result.errors === 0 && result.non2xx === 0 && growth <= 0.1;
  console.log(JSON.stringify({ ...summary, samples: undefined, passed }, null, 2));
  await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    path.join(ROOT, 'bench/results/soak.json'),
    JSON.stringify({ ...summary, passed, at: new Date().toISOString() }, null, 2),
  );
  if (!passed) process.exitCode = 1;
} finally {
  if (child) await stop(child);
  if (DATABASE_URL)
    await runNode(['src/main.ts', 'tenant', 'delete', tenantName], env).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
