// npm run bench: measures the baselines and every scenario, one server at a time, and prints
// one table (req/s, p50, p99, ratio to the baselines). Results go to bench/results/latest.json.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { withBodies } from './autocannon-bodies.ts';
import {
  clientToken,
  createTenant,
  freePort,
  runNode,
  startServer,
  serverEnv,
  stop,
  waitFor,
} from './processes.ts';
import { ANALYTICS_SCENARIOS, type AnalyticsSeed } from './analytics-scenarios.ts';
import {
  SERVER_SCENARIOS,
  type BenchContext,
  type Engine,
  type Scenario,
  SEARCH_SCENARIOS,
} from './scenarios.ts';
import { STORAGE_BASELINES, STORAGE_SCENARIOS, type AssetSeed } from './storage-scenarios.ts';
import { SEARCH_TENANT_FILE, SEED_ONLY, seedSearch, type SearchSeed } from './search-tenant.ts';

// BENCH_ONLY=soak, rls and import select a bench of their own instead of the scenario table: the
// soak (bench/soak.ts), the cost of row-level security (bench/rls-cost.ts) and the catalog import
// against bare multi-row INSERTs (bench/catalog-import.ts).
const ownBench = { soak: './soak.ts', rls: './rls-cost.ts', import: './catalog-import.ts' }[
  process.env.BENCH_ONLY?.toLowerCase() ?? ''
];
if (ownBench) {
  await import(ownBench);
  process.exit();
}

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
// The machine's speed drifts over minutes (shared host), so the scenarios are measured in
// rounds with the ideal baseline measured between them, each round's ratios are taken against
// the mean of the ideal runs just before and just after it, and the table shows the median.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  console.error(`BENCH_ROUNDS must be a whole number ≥ 1 (got ${process.env.BENCH_ROUNDS}).`);
  process.exit(1);
}
const engine: Engine = DATABASE_URL ? 'postgres' : 'pglite';
// BENCH_ONLY=<regular expression>: only the scenarios whose name matches (the health baseline,
// which every ratio needs, always runs), e.g. BENCH_ONLY='nearest store'.
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
const selectedScenarios = SERVER_SCENARIOS.filter(
  (s, index) => index === 0 || !only || only.test(s.name),
);

interface Measured {
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(
  name: string,
  port: number,
  requests: autocannon.Request[],
  dropBodies = false,
): Promise<Measured> {
  process.stderr.write(`measuring ${name} …\n`);
  const run = (duration: number) =>
    withBodies(!dropBodies, () =>
      autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, requests }),
    );
  // A short warm-up lets the JIT and the database caches settle before the measured run.
  await run(Math.min(3, DURATION));
  const result = await run(DURATION);
  return {
    scenario: name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function measureIdeal(dataDir: string): Promise<Measured> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/ideal.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      BENCH_IDEAL_DATA_DIR: dataDir,
      ...(DATABASE_URL ? { BENCH_DATABASE_URL: DATABASE_URL } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(port, '/items/1', child);
    return await measure('ideal: bare Fastify, prepared PK select (baseline)', port, [
      {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: `/items/${1 + Math.floor(Math.random() * 100_000)}`,
        }),
      },
    ]);
  } finally {
    await stop(child);
  }
}

interface Seeded {
  env: NodeJS.ProcessEnv;
  port: number;
  tenantName: string;
  appId: string;
  secret: string;
  minItemId: number;
  maxItemId: number;
  analytics?: AnalyticsSeed;
  assets?: AssetSeed;
  search?: SearchSeed;
}

/** A tenant with its management app and the 100k-item catalog, made once for all rounds. */
async function seed(dataDir: string): Promise<Seeded> {
  const port = await freePort();
  const env = serverEnv(port, dataDir);
  const tenantName = `bench${Date.now().toString(36)}`;
  const created = await createTenant(tenantName, env);
  if (selectedScenarios.some((s) => /nearest store/i.test(s.name)))
    await runNode(['bench/company-seed.ts', tenantName], env);
  // The 100k-item catalog takes minutes to seed: a run of search scenarios alone (they have a
  // tenant of their own) goes without it.
  const searchOnly = selectedScenarios.every(
    (s, index) => index === 0 || SEARCH_SCENARIOS.includes(s),
  );
  const seeded = searchOnly
    ? { minItemId: 0, maxItemId: 0 }
    : (JSON.parse(await runNode(['bench/seed-catalog.ts', tenantName], env)) as {
        minItemId: number;
        maxItemId: number;
      });
  const analyticsSelected = selectedScenarios.some((s) => ANALYTICS_SCENARIOS.includes(s));
  const analytics = analyticsSelected
    ? (JSON.parse(await runNode(['bench/analytics-seed.ts', tenantName], env)) as AnalyticsSeed)
    : undefined;
  const assets = selectedScenarios.some((s) => STORAGE_SCENARIOS.includes(s))
    ? (JSON.parse(await runNode(['bench/storage-seed.ts', tenantName], env)) as AssetSeed)
    : undefined;
  const search = selectedScenarios.some((s) => SEARCH_SCENARIOS.includes(s))
    ? await seedSearch(`${tenantName}s`, env)
    : undefined;
  return {
    ...(search ? { search } : {}),
    env,
    port,
    tenantName,
    ...(analytics ? { analytics } : {}),
    ...(assets ? { assets } : {}),
    appId: created.ApplicationId,
    secret: created.ApplicationSecret,
    ...seeded,
  };
}

/** The baselines of the selected AssetUrl scenarios, on the bare server (asset-baseline.ts). */
async function measureAssetBaselines(assets: AssetSeed): Promise<Measured[]> {
  const baselines = STORAGE_BASELINES.filter((b) => selectedScenarios.some((s) => s.name === b.of));
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/asset-baseline.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BENCH_ASSET_SEED: JSON.stringify(assets) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(port, '/image', child);
    const results: Measured[] = [];
    for (const baseline of baselines)
      results.push(await measure(baseline.name, port, baseline.requests(assets), true));
    return results;
  } finally {
    await stop(child);
  }
}

async function measureServer(seeded: Seeded, scenarios: Scenario[]): Promise<Measured[]> {
  const { port } = seeded;
  const child = await startServer(port, seeded.env);
  try {
    const tenantHost = `${seeded.tenantName}.localhost:${port}`;
    const tokenOf = (host: string, appId: string, secret: string) =>
      clientToken(port, host, appId, secret);
    const ctx: BenchContext = {
      tenantHost,
      appId: seeded.appId,
      secret: seeded.secret,
      token: await tokenOf(tenantHost, seeded.appId, seeded.secret),
      minItemId: seeded.minItemId,
      maxItemId: seeded.maxItemId,
      ...(seeded.analytics ? { analytics: seeded.analytics } : {}),
      ...(seeded.assets ? { assets: seeded.assets } : {}),
      ...(seeded.search
        ? {
            search: {
              host: `${seeded.search.tenantName}.localhost:${port}`,
              token: await tokenOf(
                `${seeded.search.tenantName}.localhost:${port}`,
                seeded.search.appId,
                seeded.search.secret,
              ),
              brandId: seeded.search.brandId,
              priceTypeId: seeded.search.priceTypeId,
            },
          }
        : {}),
    };
    const results: Measured[] = [];
    for (const scenario of scenarios)
      results.push(await measure(scenario.name, port, scenario.requests(ctx), scenario.dropBodies));
    return results;
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The ideal baseline of a round: the mean of its runs just before and just after the round. */
function meanOf(before: Measured, after: Measured): Measured {
  return {
    scenario: before.scenario,
    requestsPerSecond: Math.round((before.requestsPerSecond + after.requestsPerSecond) / 2),
    p50: (before.p50 + after.p50) / 2,
    p99: (before.p99 + after.p99) / 2,
    non2xx: before.non2xx + after.non2xx,
    errors: before.errors + after.errors,
  };
}

interface RoundRow extends Measured {
  vsIdeal: number;
  vsHealth: number;
  /** The ratio its target is about, in this round. */
  ratio?: number;
}

/** One round's rows: each measurement with its ratios to this round's baselines. */
function ratiosOf(ideal: Measured, server: Measured[]): RoundRow[] {
  const health = server[0]!;
  const all = [ideal, ...server];
  return all.map((m) => {
    const target = SERVER_SCENARIOS.find((s) => s.name === m.scenario)?.target;
    const vsIdeal = m.requestsPerSecond / ideal.requestsPerSecond;
    const vsHealth = m.requestsPerSecond / health.requestsPerSecond;
    let ratio: number | undefined;
    if (target && 'relativeTo' in target) {
      const other = all.find((o) => o.scenario === target.relativeTo);
      ratio = other ? m.requestsPerSecond / other.requestsPerSecond : undefined;
    } else if (target) {
      ratio = target.baseline === 'ideal' ? vsIdeal : vsHealth;
    }
    return { ...m, vsIdeal, vsHealth, ratio };
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-bench-'));
const idealDir = await mkdtemp(path.join(tmpdir(), 'omni-ideal-'));
const rounds: RoundRow[][] = [];
let seeded: Seeded | undefined;
try {
  seeded = await seed(dataDir);
  let idealBefore = SEED_ONLY ? undefined : await measureIdeal(idealDir);
  for (let round = 1; round <= (SEED_ONLY ? 0 : ROUNDS); round++) {
    process.stderr.write(`round ${round} of ${ROUNDS}\n`);
    const server = await measureServer(seeded, selectedScenarios);
    // The analytics ingestion baseline (a bare client), while the server is stopped.
    if (seeded.analytics)
      server.push(
        JSON.parse(
          await runNode(['bench/analytics-baseline.ts', seeded.tenantName], seeded.env),
        ) as Measured,
      );
    if (seeded.assets) server.push(...(await measureAssetBaselines(seeded.assets)));
    const idealAfter = await measureIdeal(idealDir);
    rounds.push(ratiosOf(meanOf(idealBefore!, idealAfter), server));
    idealBefore = idealAfter;
  }
} finally {
  if (DATABASE_URL && seeded)
    for (const name of [
      seeded.tenantName,
      SEARCH_TENANT_FILE ? undefined : seeded.search?.tenantName,
    ].filter((n) => n !== undefined))
      await runNode(['src/main.ts', 'tenant', 'delete', name], seeded.env).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
  await rm(idealDir, { recursive: true, force: true });
}

if (SEED_ONLY) process.exit(0);

const rows = rounds[0]!.map((first, index) => {
  const each = rounds.map((round) => round[index]!);
  const target = SERVER_SCENARIOS.find((s) => s.name === first.scenario)?.target;
  const ratios = each.map((r) => r.ratio).filter((r) => r !== undefined);
  const ratio = ratios.length ? median(ratios) : undefined;
  const non2xx = each.reduce((sum, r) => sum + r.non2xx, 0);
  const goal =
    (!target
      ? ''
      : 'relativeTo' in target
        ? `≥ ${target.minRatio.toFixed(2)} × ${target.relativeTo.split(' (')[0]}`
        : `≥ ${target.minRatio} × ${target.baseline}`) +
    (target?.maxP99OverP50 ? `, p99 ≤ ${target.maxP99OverP50}×p50` : '') +
    (target?.maxP99Ms ? `, p99 ≤ ${target.maxP99Ms} ms` : '');
  // A target set for other engines is shown for reference and not judged here.
  const setFor = target?.engines;
  const applies = !setFor || setFor.includes(engine);
  const label = applies ? goal : `(${setFor.join(', ')}) ${goal}`;
  const p50 = median(each.map((r) => r.p50));
  const p99 = median(each.map((r) => r.p99));
  const p99Met =
    (target?.maxP99OverP50 === undefined || p99 <= target.maxP99OverP50 * p50) &&
    (target?.maxP99Ms === undefined || p99 <= target.maxP99Ms);
  const met =
    ratio === undefined || !target || !applies
      ? ''
      : ratio >= target.minRatio && p99Met && non2xx === 0
        ? 'yes'
        : 'NO';
  return {
    scenario: first.scenario,
    requestsPerSecond: Math.round(median(each.map((r) => r.requestsPerSecond))),
    p50,
    p99,
    non2xx,
    errors: each.reduce((sum, r) => sum + r.errors, 0),
    vsIdeal: Number(median(each.map((r) => r.vsIdeal)).toFixed(3)),
    vsHealth: Number(median(each.map((r) => r.vsHealth)).toFixed(3)),
    ratio: ratio === undefined ? undefined : Number(ratio.toFixed(3)),
    /** Per round: req/s and the target's ratio. */
    rounds: each.map((r) => ({
      requestsPerSecond: r.requestsPerSecond,
      ratio: r.ratio === undefined ? undefined : Number(r.ratio.toFixed(3)),
    })),
    target: label,
    met,
  };
});

const header = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  '× ideal',
  '× health',
  'target',
  'ratio (each round)',
  'met',
];
const table = rows.map((r) =>
  [
    r.scenario,
    r.requestsPerSecond,
    r.p50,
    r.p99,
    r.non2xx,
    r.vsIdeal,
    r.vsHealth,
    r.target,
    r.ratio === undefined ? '' : `${r.ratio} (${r.rounds.map((x) => x.ratio).join(' ')})`,
    r.met,
  ].map(String),
);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(
  `\nengine: ${engine}, ${CONNECTIONS} connections, ${DURATION} s per scenario, median of ${ROUNDS} rounds\n`,
);
console.log(line(header));
for (const row of table) console.log(line(row));

await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
await writeFile(
  path.join(ROOT, 'bench/results/latest.json'),
  JSON.stringify(
    {
      engine,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds: ROUNDS,
      at: new Date().toISOString(),
      results: rows,
    },
    null,
    2,
  ),
);
