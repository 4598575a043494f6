// The cost of PostgreSQL row-level security as a second tenant wall (`BENCH_ONLY=rls npm run
// bench`, PostgreSQL only). A bare Fastify server (like the ideal baseline) serves an item
// document by tenant and id, and bumps an item's version, two ways on the same table:
//   plain: what the server does today (its role owns the tables, so no policy applies; every
//          statement names the tenant);
//   rls:   what the wall would add: each request in a transaction that sets a non-owner role and
//          the tenant (`set_config(…, true)` = SET LOCAL), under a policy on tenant_id.
// Reads outside a transaction today pay BEGIN, the settings and COMMIT; writes, already in one,
// pay the settings statement. Results go to bench/results/rls.json.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Agent, get as httpGet } from 'node:http';
import Fastify from 'fastify';
import pg from 'pg';
import { freePort, stop, waitFor } from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TENANTS = 20;
const ROWS = 100_000;
const ROLE = 'omni_rls_probe';

const SETUP = `
  create table if not exists rls_probe_items (
    tenant_id integer not null, id integer not null, version integer not null default 1,
    document text not null, primary key (tenant_id, id));
  insert into rls_probe_items (tenant_id, id, document)
    select 1 + g % ${TENANTS}, g,
           json_build_object('Id', g, 'Sku', 'SKU-' || g, 'Title', 'Product ' || g,
                             'Description', repeat('A fine product. ', 20))::text
      from generate_series(1, ${ROWS}) g
    on conflict do nothing;
  do $$ begin
    if not exists (select 1 from pg_roles where rolname = '${ROLE}') then
      create role ${ROLE} nologin;
    end if;
  end $$;
  grant usage on schema public to ${ROLE};
  grant select, update on rls_probe_items to ${ROLE};
  alter table rls_probe_items enable row level security;
  drop policy if exists tenant_wall on rls_probe_items;
  create policy tenant_wall on rls_probe_items for all
    using (tenant_id = current_setting('omni.tenant_id')::int)
    with check (tenant_id = current_setting('omni.tenant_id')::int);
  analyze rls_probe_items;`;
const TEARDOWN = `
  drop table if exists rls_probe_items;
  do $$ begin
    if exists (select 1 from pg_roles where rolname = '${ROLE}') then
      drop owned by ${ROLE};
      drop role ${ROLE};
    end if;
  end $$;`;

const READ = 'select document from rls_probe_items where tenant_id = $1 and id = $2';
const WRITE =
  'update rls_probe_items set version = version + 1 where tenant_id = $1 and id = $2 returning version';
const WALL = `select set_config('role', '${ROLE}', true), set_config('omni.tenant_id', $1, true)`;

/** The probe server (this file run with `serve`). */
async function serve(): Promise<void> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  const app = Fastify();
  type Params = { Params: { tenant: string; id: string } };
  const keys = (request: { params: { tenant: string; id: string } }) => [
    Number(request.params.tenant),
    Number(request.params.id),
  ];
  app.get<Params>('/plain/read/:tenant/:id', async (request) => {
    const result = await pool.query({ name: 'probe_read', text: READ, values: keys(request) });
    return result.rows[0] as unknown;
  });
  app.get<Params>('/plain/write/:tenant/:id', async (request) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await client.query({
        name: 'probe_write',
        text: WRITE,
        values: keys(request),
      });
      await client.query('commit');
      return result.rows[0] as unknown;
    } finally {
      client.release();
    }
  });
  for (const kind of ['read', 'write'] as const) {
    app.get<Params>(`/rls/${kind}/:tenant/:id`, async (request) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query({ name: 'probe_wall', text: WALL, values: [request.params.tenant] });
        const result = await client.query({
          name: `probe_${kind}`,
          text: kind === 'read' ? READ : WRITE,
          values: keys(request),
        });
        await client.query('commit');
        return result.rows[0] as unknown;
      } finally {
        client.release();
      }
    });
  }
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => pool.end()));
}

/**
 * Plain and wall requests of one kind, interleaved at random in the same run so that both meet
 * the same host (a shared machine drifts by more than the cost measured): CONNECTIONS loops for
 * DURATION seconds, each request's latency added to its mode. At a fixed concurrency req/s is
 * inversely proportional to latency, so the cost is 1 − plain latency / wall latency.
 */
async function measure(port: number, kind: 'read' | 'write') {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const totals = { plain: { n: 0, ms: 0 }, rls: { n: 0, ms: 0 } };
  const get = (urlPath: string) =>
    new Promise<number>((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
  const loop = async (until: number, record: boolean) => {
    while (Date.now() < until) {
      const mode = Math.random() < 0.5 ? 'plain' : 'rls';
      const id = 1 + Math.floor(Math.random() * ROWS);
      const started = performance.now();
      const status = await get(`/${mode}/${kind}/${1 + (id % TENANTS)}/${id}`);
      if (status !== 200) throw new Error(`${mode}/${kind}: status ${status}`);
      if (record) {
        totals[mode].n++;
        totals[mode].ms += performance.now() - started;
      }
    }
  };
  const run = (seconds: number, record: boolean) =>
    Promise.all(
      Array.from({ length: CONNECTIONS }, () => loop(Date.now() + seconds * 1000, record)),
    );
  await run(Math.min(3, DURATION), false);
  await run(DURATION, true);
  agent.destroy();
  const plainMs = totals.plain.ms / totals.plain.n;
  const rlsMs = totals.rls.ms / totals.rls.n;
  return {
    plainMs: Number(plainMs.toFixed(3)),
    rlsMs: Number(rlsMs.toFixed(3)),
    requests: totals.plain.n + totals.rls.n,
    cost: Number((1 - plainMs / rlsMs).toFixed(3)),
  };
}

async function main(): Promise<void> {
  if (!DATABASE_URL) {
    console.error('The RLS cost bench runs on PostgreSQL only: set BENCH_DATABASE_URL.');
    process.exitCode = 1;
    return;
  }
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(SETUP);
  const port = await freePort();
  const child = spawn(process.execPath, [import.meta.filename, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const rounds: {
    read: Awaited<ReturnType<typeof measure>>;
    write: Awaited<ReturnType<typeof measure>>;
  }[] = [];
  try {
    await waitFor(port, '/plain/read/1/1', child);
    // The wall must hold before its cost means anything: with the tenant set, a query without a
    // tenant predicate sees that tenant's rows only.
    await admin.query('begin');
    await admin.query(WALL, ['3']);
    const [seen] = (await admin.query('select count(*)::int as n from rls_probe_items')).rows as {
      n: number;
    }[];
    await admin.query('rollback');
    if (seen?.n !== ROWS / TENANTS) throw new Error(`the policy let tenant 3 see ${seen?.n} rows`);
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`rls cost: round ${round} of ${ROUNDS}\n`);
      rounds.push({ read: await measure(port, 'read'), write: await measure(port, 'write') });
    }
  } finally {
    await stop(child);
    await admin.query(TEARDOWN);
    await admin.end();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cost = (kind: 'read' | 'write') => median(rounds.map((r) => r[kind].cost));
  const summary = {
    engine: 'postgres',
    rounds,
    readCost: cost('read'),
    writeCost: cost('write'),
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(summary, null, 2));
  await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench/results/rls.json'), JSON.stringify(summary, null, 2));
}

await (process.argv[2] === 'serve' ? serve() : main());
