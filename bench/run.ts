// npm run bench: measures the baselines and every scenario, one server at a time, and prints
// one table (req/s, p50, p99, ratio to the baselines). Results go to bench/results/latest.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SERVER_SCENARIOS, type BenchContext, type Scenario } from './scenarios.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const engine = DATABASE_URL ? 'postgres' : 'pglite';

interface Measured {
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function call(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function waitFor(port: number, urlPath: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      if ((await call(port, 'GET', urlPath, {})).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${urlPath}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function measure(
  name: string,
  port: number,
  requests: autocannon.Request[],
): Promise<Measured> {
  process.stderr.write(`measuring ${name} …\n`);
  // A short warm-up lets the JIT and the database caches settle before the measured run.
  await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: Math.min(3, DURATION),
    requests,
  });
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests,
  });
  return {
    scenario: name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function measureIdeal(): Promise<Measured> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/ideal.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
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

async function measureServer(scenarios: Scenario[]): Promise<Measured[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-bench-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    ...(DATABASE_URL ? { DATABASE_URL } : { DATABASE_URL: '' }),
  };
  const tenantName = `bench${Date.now().toString(36)}`;
  const created = JSON.parse(
    await runNode(['src/main.ts', 'tenant', 'create', tenantName, '--json'], env),
  ) as {
    ApplicationId: string;
    ApplicationSecret: string;
  };
  const seeded = JSON.parse(await runNode(['bench/seed-catalog.ts', tenantName], env)) as {
    minItemId: number;
    maxItemId: number;
  };
  const child = spawn(process.execPath, ['src/main.ts', 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(port, '/health/ready', child);
    const tenantHost = `${tenantName}.localhost:${port}`;
    const tokenResponse = await call(
      port,
      'POST',
      '/oauth/token',
      {
        host: tenantHost,
        authorization: `Basic ${Buffer.from(`${created.ApplicationId}:${created.ApplicationSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      'grant_type=client_credentials',
    );
    const ctx: BenchContext = {
      tenantHost,
      appId: created.ApplicationId,
      secret: created.ApplicationSecret,
      token: (JSON.parse(tokenResponse.body) as { access_token: string }).access_token,
      minItemId: seeded.minItemId,
      maxItemId: seeded.maxItemId,
    };
    const results: Measured[] = [];
    for (const scenario of scenarios)
      results.push(await measure(scenario.name, port, scenario.requests(ctx)));
    return results;
  } finally {
    await stop(child);
    if (DATABASE_URL)
      await runNode(['src/main.ts', 'tenant', 'delete', tenantName], env).catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
}

const ideal = await measureIdeal();
const server = await measureServer(SERVER_SCENARIOS);
const health = server[0]!;
const all = [ideal, ...server];
const rows = all.map((m) => {
  const scenario = SERVER_SCENARIOS.find((s) => s.name === m.scenario);
  const vsIdeal = m.requestsPerSecond / ideal.requestsPerSecond;
  const vsHealth = m.requestsPerSecond / health.requestsPerSecond;
  const target = scenario?.target;
  let ratio: number | undefined;
  let label = '';
  if (target && 'relativeTo' in target) {
    const other = all.find((o) => o.scenario === target.relativeTo);
    ratio = other ? m.requestsPerSecond / other.requestsPerSecond : undefined;
    label = `≥ ${target.minRatio.toFixed(2)} × ${target.relativeTo.split(' (')[0]}`;
  } else if (target) {
    ratio = target.baseline === 'ideal' ? vsIdeal : vsHealth;
    label = `≥ ${target.minRatio} × ${target.baseline}`;
  }
  const met =
    ratio === undefined || !target ? '' : ratio >= target.minRatio && m.non2xx === 0 ? 'yes' : 'NO';
  return {
    ...m,
    vsIdeal: Number(vsIdeal.toFixed(3)),
    vsHealth: Number(vsHealth.toFixed(3)),
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
    r.met,
  ].map(String),
);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`\nengine: ${engine}, ${CONNECTIONS} connections, ${DURATION} s per scenario\n`);
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
      at: new Date().toISOString(),
      results: rows,
    },
    null,
    2,
  ),
);
