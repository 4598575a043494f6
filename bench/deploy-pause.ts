// How long item writes wait while a release step re-applies the SQL code (docs/operations.md,
// "Deploying a new version"). Writers of several tenants create items without pause through the
// app; meanwhile `omni migrate` runs as its own process after the catalog's code files were
// marked changed, as a deploy that changed them finds them. Two cases, one after the other:
//   function bodies: the files changed, the triggers' own definitions did not (the usual deploy);
//   triggers made again: the triggers' recorded definitions cleared too, so every trigger of
//   those files is made again (what every such deploy did before triggers were made only when
//   they changed).
// For each: the writes' latency before and during the release step (p50, p99, worst) and the
// release step's own time. BENCH_DATABASE_URL: PostgreSQL or a Citus coordinator (required: the
// embedded database has one connection, so nothing runs beside a release step there).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/omni_bench node bench/deploy-pause.ts
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';
import { createServices } from '../src/module-wiring.ts';
import { clientToken } from './in-process-tenant.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required (PostgreSQL or a Citus coordinator)');
const TENANTS = 4;
const WRITERS_PER_TENANT = 2;
const CODE_FILES = [
  'modules/catalog/sql/010-item-documents.sql',
  'modules/catalog/sql/020-item-search.sql',
  'modules/catalog/sql/030-catalog-counts.sql',
  'modules/catalog/sql/040-catalog-events.sql',
];

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-deploy-pause-'));
const config = loadConfig({
  ...process.env,
  DATABASE_URL: url,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  MIGRATE_ON_START: 'true',
});
const database = await openDatabase(config);
await migrateDatabase(database);
const services = createServices(config, database);
const app = await buildApp(services);
await app.ready();

const stamp = Date.now() % 100_000;
const tenants = await Promise.all(
  Array.from({ length: TENANTS }, async (_, n) => {
    const { tenant, bootstrapApp } = await services.tenants.create(`pause${stamp}-${n}`);
    const host = `${tenant.name}.localhost`;
    return { host, token: await clientToken(app, host, bootstrapApp) };
  }),
);

interface Write {
  startedAt: number;
  ms: number;
  status: number;
}
const writes: Write[] = [];
let writing = true;
async function writer(tenant: { host: string; token: string }, n: string): Promise<void> {
  for (let i = 0; writing; i++) {
    const startedAt = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/private/catalog/item',
      headers: {
        host: tenant.host,
        authorization: `Bearer ${tenant.token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ Title: `Storm lantern ${n}-${i}`, SKU: `LAN-${n}-${i}` }),
    });
    writes.push({ startedAt, ms: performance.now() - startedAt, status: answer.statusCode });
  }
}

function migrateProcess(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [path.join(import.meta.dirname, '../src/main.ts'), 'migrate'],
      {
        env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`migrate exited ${code}`)),
    );
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
function summary(list: Write[]): string {
  const ms = list.map((w) => w.ms).sort((a, b) => a - b);
  const failed = list.filter((w) => w.status >= 300).length;
  return `${list.length} writes, p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, worst ${(ms.at(-1) ?? NaN).toFixed(1)} ms${failed ? `, ${failed} not 2xx` : ''}`;
}

// Sessions waiting for a table's lock, sampled every 20 ms (on Citus every node's, through
// citus_stat_activity): the longest wait seen. A write's latency also holds the CPU it queued
// for on a loaded host, and the writers' waits for each other's rows (a tenant's item count);
// this is the part the release step's locks cause.
async function longestLockWait(until: Promise<unknown>): Promise<number> {
  const [citus] = await database.query<{ found: boolean }>(
    "select to_regclass('citus_stat_activity') is not null as found",
  );
  const view = citus?.found ? 'citus_stat_activity' : 'pg_stat_activity';
  let done = false;
  void until.finally(() => (done = true));
  let longest = 0;
  while (!done) {
    const [row] = await database.query<{ ms: number | null }>(
      `select max(extract(epoch from clock_timestamp() - query_start) * 1000)::float8 as ms
         from ${view} where wait_event_type = 'Lock' and wait_event = 'relation'`,
    );
    longest = Math.max(longest, row?.ms ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return longest;
}

async function runCase(name: string, prepare: string): Promise<void> {
  writes.length = 0;
  writing = true;
  const writers = tenants.flatMap((tenant, t) =>
    Array.from({ length: WRITERS_PER_TENANT }, (_, w) =>
      writer(tenant, `${name.length}-${t}-${w}`),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await database.exec(prepare);
  const from = performance.now();
  const release = migrateProcess();
  const [releaseMs, lockWaitMs] = await Promise.all([release, longestLockWait(release)]);
  const to = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  writing = false;
  await Promise.all(writers);
  const before = writes.filter((w) => w.startedAt < from);
  // A write that was waiting when the release step began counts as during it.
  const during = writes.filter((w) => w.startedAt + w.ms >= from && w.startedAt <= to);
  console.log(
    `${name}: release step ${releaseMs.toFixed(0)} ms; longest lock wait seen ${lockWaitMs.toFixed(0)} ms`,
  );
  console.log(`  before: ${summary(before)}`);
  console.log(`  during: ${summary(during)}`);
}

const changed = `update sql_code_files set sha256 = 'changed' where name in (${CODE_FILES.map((f) => `'${f}'`).join(', ')})`;
try {
  await runCase('function bodies (triggers unchanged)', changed);
  await runCase(
    'triggers made again (their recorded definitions cleared)',
    `${changed};
     do $$ declare t record; begin
       for t in select tgname, tgrelid::regclass as tbl from pg_trigger
                 where not tgisinternal and tgrelid in ('items'::regclass, 'item_prices'::regclass,
                   'item_attributes'::regclass, 'item_tags'::regclass, 'brands'::regclass,
                   'categories'::regclass, 'category_metadata'::regclass, 'tags'::regclass) loop
         execute format('comment on trigger %I on %s is null', t.tgname, t.tbl);
       end loop; end $$`,
  );
} finally {
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
