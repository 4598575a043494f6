// node bench/citus-idle-statements.ts: what idle server instances cost a Citus cluster, in
// statements (committed transactions) per second on each node (docs/operations.md, "Citus").
//
// BENCH_DATABASE_URL names a Citus database already migrated (`npm run omni -- migrate`). The
// bench first counts what the cluster does in that database with no instance running (Citus's
// own maintenance), then starts BENCH_INSTANCES servers (4) on it with the default settings,
// lets them settle (BENCH_SETTLE_SECONDS, 30: the start's own statements and jobs), and counts
// again for BENCH_SECONDS (60). A count is the change of pg_stat_database.xact_commit of the
// database on each node (the coordinator and every worker): every statement outside a
// transaction is a transaction of its own, and on a worker each shard a statement reads is one
// (pg_stat_statements is not loaded on the shared cluster); and the scans of each table's shards
// on the workers (pg_stat_user_tables), which tell whose statements they are. Prints each node's
// rate and the cluster's, without instances and with them, and writes
// bench/results/citus-idle-statements.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, serverEnv, startServer, stop } from './processes.ts';

const URL_ = process.env.BENCH_DATABASE_URL;
if (!URL_) {
  console.error('BENCH_DATABASE_URL must name a migrated Citus database');
  process.exit(2);
}
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 4);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 30);

interface Node {
  name: string;
  url: string;
}

const coordinator = new URL(URL_);
const database = coordinator.pathname.slice(1);
const nodes: Node[] = [{ name: `coordinator ${coordinator.host}`, url: URL_ }];
{
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  const { rows } = await client.query<{ host: string; port: number }>(
    'select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 order by nodeid',
  );
  await client.end();
  for (const row of rows) {
    const url = new URL(URL_);
    url.hostname = row.host;
    url.port = String(row.port);
    nodes.push({ name: `worker ${row.host}:${row.port}`, url: url.toString() });
  }
}

/** Committed transactions of the database on each node so far. */
async function commits(): Promise<number[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const client = new pg.Client({ connectionString: node.url });
      await client.connect();
      try {
        // The statistics of this session's transaction stay as they were read first: read afresh.
        await client.query('select pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ n: string }>(
          'select xact_commit::text as n from pg_stat_database where datname = $1',
          [database],
        );
        return Number(rows[0]!.n);
      } finally {
        await client.end();
      }
    }),
  );
}

/**
 * The scans (sequential and index) of every table's shards on the workers so far, by table: what
 * the statements read, each shard a statement reads counting once or more.
 */
async function shardScans(): Promise<Map<string, number>> {
  const scans = new Map<string, number>();
  for (const node of nodes.slice(1)) {
    const client = new pg.Client({ connectionString: node.url });
    await client.connect();
    try {
      // Citus hides the shards from catalog queries but for the sessions this names.
      await client.query("set citus.show_shards_for_app_name_prefixes = '*'");
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ name: string; n: string }>(
        `select regexp_replace(relname, '_[0-9]+$', '') as name,
                sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as n
           from pg_stat_user_tables where relname ~ '_[0-9]+$' group by 1`,
      );
      for (const row of rows) scans.set(row.name, (scans.get(row.name) ?? 0) + Number(row.n));
    } finally {
      await client.end();
    }
  }
  return scans;
}

let lastScans: Record<string, number> = {};

/** Each node's committed transactions per second over `seconds` (less this bench's own reads). */
async function rates(seconds: number): Promise<number[]> {
  const [before, scansBefore] = await Promise.all([commits(), shardScans()]);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const [after, scansAfter] = await Promise.all([commits(), shardScans()]);
  lastScans = Object.fromEntries(
    [...scansAfter]
      .map(([name, n]) => [name, round((n - (scansBefore.get(name) ?? 0)) / seconds)] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1]),
  );
  // Each statement that reads the counters is a transaction of that node's: two per read on the
  // coordinator, five on a worker, read twice.
  return after.map((n, i) => Math.max(0, n - before[i]! - (i === 0 ? 4 : 10)) / seconds);
}

const round = (n: number) => Math.round(n * 10) / 10;
const report = (label: string, perNode: number[]) => {
  const total = perNode.reduce((sum, n) => sum + n, 0);
  console.log(
    `${label}: ${round(total)} statements/s on the cluster (${nodes.map((node, i) => `${node.name} ${round(perNode[i]!)}`).join(', ')})`,
  );
  console.log(`  shard scans/s on the workers, by table: ${JSON.stringify(lastScans)}`);
  return {
    total: round(total),
    perNode: Object.fromEntries(nodes.map((n, i) => [n.name, round(perNode[i]!)])),
    shardScansPerSecond: lastScans,
  };
};

const baseline = report(`no instance (${BASELINE_SECONDS} s)`, await rates(BASELINE_SECONDS));
const dataDirs: string[] = [];
const servers: ChildProcess[] = [];
let measured: ReturnType<typeof report>;
try {
  for (let i = 0; i < INSTANCES; i++) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-idle-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    servers.push(
      await startServer(
        port,
        serverEnv(port, dataDir, {
          DATABASE_URL: URL_,
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        }),
      ),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  measured = report(`${INSTANCES} idle instances (${SECONDS} s)`, await rates(SECONDS));
} finally {
  await Promise.all(servers.map(stop));
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
const resultsDir = path.join(import.meta.dirname, 'results');
await mkdir(resultsDir, { recursive: true });
await writeFile(
  path.join(resultsDir, 'citus-idle-statements.json'),
  `${JSON.stringify({ database, instances: INSTANCES, seconds: SECONDS, baseline, measured, instancesOnly: round(measured.total - baseline.total) }, null, 2)}\n`,
);
console.log(`the instances' own: ${round(measured.total - baseline.total)} statements/s`);
