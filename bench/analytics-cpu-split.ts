// Where the CPU of a 1000-record batch goes, on both sides of the ingestion target: POST
// /analytics/logs over HTTP (the server process, the PostgreSQL processes, this process as the
// load generator) and the bare client's multi-row INSERT (the client, the PostgreSQL processes),
// the same rows into the same table from BENCH_CONNECTIONS connections. CPU is read from /proc,
// so PostgreSQL must run on this machine. No catalog or log seed: ingestion writes the current
// month's partition, which the bench's seed (an earlier month) does not touch.
// BENCH_PERF=<folder>: also records `perf record -a -g` of each measured run there (perf-http-N.data,
// perf-bare-N.data), to see where the PostgreSQL processes spend it, and the server's
// --cpu-prof there.
// Usage: BENCH_DATABASE_URL=postgres://… node bench/analytics-cpu-split.ts
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { apiBatch, multiRowInsert, storedRow } from './analytics-rows.ts';
import { ANALYTICS_SCENARIOS } from './analytics-scenarios.ts';
import { cpuOf, postgresCpu, postgresCpuSince } from './process-cpu.ts';
import type { BenchContext } from './scenarios.ts';
import {
  clientToken,
  createTenant,
  freePort,
  runNode,
  serverEnv,
  startServer,
  stop,
} from './processes.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required (PostgreSQL on this machine)');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const since = postgresCpuSince;
const selfCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Busy and all jiffies of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; all: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const all = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: all - cpu[3]! - cpu[4]!, all };
}

interface Split {
  rowsPerSecond: number;
  /** Share of the machine's CPU time that was busy during the run. */
  busy: number;
  msPerBatch: Record<string, number>;
}

const PERF = process.env.BENCH_PERF;

async function measured(
  name: string,
  parts: Record<string, () => number | undefined>,
  run: () => Promise<number>,
): Promise<Split> {
  const perf = PERF
    ? spawn('perf', ['record', '-a', '-g', '-o', path.join(PERF, `perf-${name}.data`)], {
        stdio: 'ignore',
      })
    : undefined;
  const pgBefore = await postgresCpu(pool);
  const before = Object.fromEntries(Object.entries(parts).map(([k, f]) => [k, f() ?? 0]));
  const ticks = machineTicks();
  const started = process.hrtime.bigint();
  const batches = await run();
  const ticksAfter = machineTicks();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (perf) {
    const exited = new Promise((r) => perf.once('exit', r));
    perf.kill('SIGINT');
    await exited;
  }
  const msPerBatch: Record<string, number> = { postgres: (await since(pool, pgBefore)) / batches };
  for (const [k, f] of Object.entries(parts)) msPerBatch[k] = ((f() ?? 0) - before[k]!) / batches;
  msPerBatch.total = Object.values(msPerBatch).reduce((a, b) => a + b, 0);
  for (const k of Object.keys(msPerBatch)) msPerBatch[k] = Math.round(msPerBatch[k]! * 100) / 100;
  return {
    rowsPerSecond: Math.round((batches * 1000) / seconds),
    busy: Math.round(((ticksAfter.busy - ticks.busy) / (ticksAfter.all - ticks.all)) * 100) / 100,
    msPerBatch,
  };
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-cpu-split-'));
const port = await freePort();
const env = serverEnv(port, dataDir);
const tenantName = `cpu${Date.now().toString(36)}`;
const created = await createTenant(tenantName, env);
const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
try {
  const [tenant] = (
    await pool.query<{ id: number }>('select id from tenants where name = $1', [tenantName])
  ).rows;
  const inserts = Array.from({ length: 20 }, (_, i) =>
    multiRowInsert(tenant!.id, apiBatch(i).map(storedRow)),
  );
  const host = `${tenantName}.localhost:${port}`;

  const http = async (seconds: number, round: number) => {
    const server = await startServer(
      port,
      PERF ? { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PERF}` } : env,
    );
    try {
      const token = await clientToken(port, host, created.ApplicationId, created.ApplicationSecret);
      // The bench's scenario (analytics-scenarios.ts), as `npm run bench` sends it.
      const requests = ANALYTICS_SCENARIOS[0]!.requests({
        tenantHost: host,
        token,
      } as BenchContext);
      const fire = (duration: number) =>
        autocannon({
          url: `http://127.0.0.1:${port}`,
          connections: CONNECTIONS,
          duration,
          requests,
        });
      await fire(2);
      return await measured(
        `http-${round}`,
        { server: () => cpuOf(server.pid!), 'load generator': selfCpu },
        async () => {
          const result = await fire(seconds);
          if (result.non2xx || result.errors) throw new Error('HTTP errors in the run');
          return result.requests.total;
        },
      );
    } finally {
      await stop(server);
    }
  };

  const bare = async (seconds: number, round: number) => {
    const fire = async (s: number) => {
      let done = 0;
      const until = Date.now() + s * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < until) {
            const [text, params] = inserts[done++ % inserts.length]!;
            await pool.query(text, params);
          }
        }),
      );
      return done;
    };
    await fire(2);
    return measured(`bare-${round}`, { client: selfCpu }, () => fire(seconds));
  };

  for (let round = 1; round <= ROUNDS; round++) {
    const a = await http(SECONDS, round);
    const b = await bare(SECONDS, round);
    console.log(
      JSON.stringify({
        round,
        http: a,
        bare: b,
        ratio: Math.round((a.rowsPerSecond / b.rowsPerSecond) * 100) / 100,
      }),
    );
  }
} finally {
  await pool.end();
  await runNode(['src/main.ts', 'tenant', 'delete', tenantName], env).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
