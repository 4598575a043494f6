// npm run bench:search-peer: our item search against a dedicated engine, side by side in one
// sitting. The bench's search tenant (bench/search-seed.ts, BENCH_SEARCH_ITEMS items) is loaded
// into a Sphinx 2.2 real-time index (Debian's `sphinxsearch`; nothing is installed here), and
// the five search scenarios of bench/scenarios.ts run against our API (HTTP, autocannon) and
// against searchd (SphinxQL, the same number of connections), alternated, BENCH_ROUNDS rounds.
// Before measuring, each scenario's answers are compared: the same page, and the same total and
// navigation counts where ours says they are exact (the error where estimated).
// Needs PostgreSQL (BENCH_DATABASE_URL): the targets are PostgreSQL's, and the peer is loaded
// from the database while our server runs.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Connection } from 'mysql2/promise';
import { call, clientToken, freePort, runNode, serverEnv, startServer, stop } from './processes.ts';
import { SEARCH_SCENARIOS, type BenchContext } from './scenarios.ts';
import { compareAnswers } from './search-peer-check.ts';
import { SEARCH_TENANT_FILE, seedSearch } from './search-tenant.ts';
import { describeTenant, indexedCount, loadCatalog } from './sphinx-load.ts';
import { ourAnswer, sphinxSearch, type SearchBody } from './sphinx-queries.ts';
import { findSearchd, startSphinx } from './sphinx-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
/** BENCH_SPHINX_DIR=<folder>: the peer's index is kept there, and reused while it holds the tenant. */
const SPHINX_DIR = process.env.BENCH_SPHINX_DIR;
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;

const searchd = findSearchd();
if (!searchd) {
  console.error(`bench:search-peer compares our search with Sphinx's searchd, which is not installed.
Install Debian's package (it installs searchd and leaves it stopped; the bench starts its own on
loopback): apt-get install sphinxsearch
or point SPHINX_SEARCHD at a searchd 2.2 binary.`);
  process.exit(2);
}
if (!DATABASE_URL) {
  console.error(`bench:search-peer runs on PostgreSQL: set BENCH_DATABASE_URL, e.g.
BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/omni_bench npm run bench:search-peer`);
  process.exit(2);
}

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0;

async function measureOurs(port: number, request: autocannon.Request): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration,
      requests: [request],
    });
  await run(Math.min(2, DURATION));
  const result = await run(DURATION);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors,
  };
}

/** CONNECTIONS SphinxQL connections, each sending the body's batch again as soon as answered. */
async function measurePeer(
  connections: Connection[],
  search: (connection: Connection) => Promise<unknown>,
): Promise<Measured> {
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    let failures = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      connections.map(async (connection) => {
        while (performance.now() < end) {
          const started = performance.now();
          try {
            await search(connection);
            latencies.push(performance.now() - started);
          } catch {
            failures++;
          }
        }
      }),
    );
    return { latencies: latencies.sort((a, b) => a - b), failures };
  };
  await run(Math.min(2, DURATION));
  const { latencies, failures } = await run(DURATION);
  return {
    requestsPerSecond: Math.round(latencies.length / DURATION),
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    failures,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-peer-'));
const sphinxDir = SPHINX_DIR ?? (await mkdtemp(path.join(tmpdir(), 'omni-sphinx-')));
const port = await freePort();
const env = serverEnv(port, dataDir);
const tenant = await seedSearch(`peer${Date.now().toString(36)}`, env);
const catalog = await describeTenant(DATABASE_URL, tenant.tenantName);
const sphinx = await startSphinx(searchd, sphinxDir);
const server = await startServer(port, env);
const connections: Connection[] = [];
let failed = false;
try {
  const loader = await sphinx.connect();
  if ((await indexedCount(loader)) === catalog.items) {
    process.stderr.write(`peer index reused (${catalog.items} items, ${sphinxDir})\n`);
  } else {
    const started = Date.now();
    await loadCatalog(DATABASE_URL, catalog, loader, (n) => {
      if (n % 50_000 === 0 || n === catalog.items) process.stderr.write(`peer index: ${n} items\n`);
    });
    process.stderr.write(`peer index loaded in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  await loader.end();
  for (let c = 0; c < CONNECTIONS; c++) connections.push(await sphinx.connect());

  const host = `${tenant.tenantName}.localhost:${port}`;
  const ctx = {
    search: {
      host,
      token: await clientToken(port, host, tenant.appId, tenant.secret),
      brandId: tenant.brandId,
      priceTypeId: tenant.priceTypeId,
    },
  } as BenchContext;
  const scenarios = SEARCH_SCENARIOS.filter((s) => !only || only.test(s.name)).map((s) => {
    const request = s.requests(ctx)[0]!;
    return {
      name: s.name.replace('POST /private/catalog/items: ', ''),
      request,
      body: JSON.parse(request.body as string) as SearchBody,
    };
  });

  const checks = new Map<string, string>();
  for (const s of scenarios) {
    const answer = await call(
      port,
      'POST',
      s.request.path!,
      s.request.headers as Record<string, string>,
      s.request.body as string,
    );
    if (answer.status !== 200)
      throw new Error(`${s.name}: our API answered ${answer.status} ${answer.body}`);
    const agreement = compareAnswers(
      ourAnswer(answer.body),
      await sphinxSearch(connections[0]!, catalog, s.body),
    );
    checks.set(s.name, agreement.summary);
    for (const problem of agreement.problems) {
      failed = true;
      process.stderr.write(`${s.name}: ${problem}\n`);
    }
  }

  const rounds: { ours: Measured; peer: Measured }[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`round ${round} of ${ROUNDS}\n`);
    const row: { ours: Measured; peer: Measured }[] = [];
    for (const s of scenarios) {
      // Which engine goes first alternates, so that neither always meets the host's drift first.
      const ours = () => measureOurs(port, s.request);
      const peer = () => measurePeer(connections, (c) => sphinxSearch(c, catalog, s.body));
      if (round % 2) {
        const o = await ours();
        row.push({ ours: o, peer: await peer() });
      } else {
        const p = await peer();
        row.push({ ours: await ours(), peer: p });
      }
      const last = row.at(-1)!;
      process.stderr.write(
        `  ${s.name}: ours ${last.ours.requestsPerSecond} req/s, Sphinx ${last.peer.requestsPerSecond} req/s\n`,
      );
    }
    rounds.push(row);
  }

  const results = scenarios.map((s, index) => {
    const each = rounds.map((r) => r[index]!);
    const summary = (pick: (m: { ours: Measured; peer: Measured }) => Measured) => ({
      requestsPerSecond: Math.round(median(each.map((m) => pick(m).requestsPerSecond))),
      p50: median(each.map((m) => pick(m).p50)),
      p99: median(each.map((m) => pick(m).p99)),
      failures: each.reduce((sum, m) => sum + pick(m).failures, 0),
    });
    const ratios = each.map((m) => m.ours.requestsPerSecond / m.peer.requestsPerSecond);
    return {
      scenario: s.name,
      ours: summary((m) => m.ours),
      peer: summary((m) => m.peer),
      ratio: Number(median(ratios).toFixed(2)),
      ratios: ratios.map((r) => Number(r.toFixed(2))),
      check: checks.get(s.name)!,
    };
  });

  const header = [
    'scenario',
    'ours req/s (p50, p99 ms)',
    'Sphinx req/s (p50, p99 ms)',
    'ours ÷ Sphinx (each round)',
    'answers',
  ];
  const table = results.map((r) => [
    r.scenario,
    `${r.ours.requestsPerSecond} (${r.ours.p50}, ${r.ours.p99})${r.ours.failures ? ` ${r.ours.failures} failed` : ''}`,
    `${r.peer.requestsPerSecond} (${r.peer.p50}, ${r.peer.p99})${r.peer.failures ? ` ${r.peer.failures} failed` : ''}`,
    `${r.ratio.toFixed(2)} (${r.ratios.join(' ')})`,
    r.check,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(
    `\n${catalog.items} items, ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} alternated rounds\n`,
  );
  console.log(line(header));
  for (const row of table) console.log(line(row));
  await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    path.join(ROOT, `bench/results/search-peer-${catalog.items}.json`),
    JSON.stringify(
      {
        items: catalog.items,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        at: new Date().toISOString(),
        results,
      },
      null,
      2,
    ),
  );
} finally {
  for (const c of connections) await c.end().catch(() => {});
  await stop(server);
  await sphinx.stop();
  if (!SEARCH_TENANT_FILE)
    await runNode(['src/main.ts', 'tenant', 'delete', tenant.tenantName], env).catch(() => {});
  if (!SPHINX_DIR) await rm(sphinxDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('\nthe answers differ (above): the figures compare different work');
  process.exit(1);
}
