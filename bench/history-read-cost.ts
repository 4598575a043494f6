// Reading one item's change history against fetching the item, through HTTP on PostgreSQL: an
// item with BENCH_HISTORY_ENTRIES entries (default 10,000: its document with a new title and
// price each time, written straight into change_history beside one real update), then in turns
// GET /private/catalog/item/{id}, its history's first page and a deep page (the page that the
// Continuation of page BENCH_HISTORY_DEPTH of 20 entries leads to, default 250: the 5,000th
// entry on). Prints req/s of each and the history's ratios to the item fetch (target ≥ 0.5), and
// the CPU time a request costs the server and PostgreSQL together (steadier on a loaded host).
//   BENCH_DATABASE_URL=postgres://… npm run bench:history-reads
// BENCH_ROUNDS (default 3), BENCH_DURATION seconds per measurement (default 8),
// BENCH_CONNECTIONS (default 10).
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuOf, postgresCpu, postgresCpuSince } from './process-cpu.ts';
import { call, startTenantServer } from './processes.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('usage: BENCH_DATABASE_URL=postgres://… npm run bench:history-reads');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ENTRIES = Number(process.env.BENCH_HISTORY_ENTRIES ?? 10_000);
const DEPTH = Number(process.env.BENCH_HISTORY_DEPTH ?? 250);

const {
  port,
  name: tenantName,
  host,
  token,
  pid,
  stop: stopServer,
} = await startTenantServer('history-reads');
const db = new pg.Client({ connectionString: url });
await db.connect();
try {
  const headers = { host, authorization: `Bearer ${token}`, accept: 'application/json' };
  const json = { ...headers, 'content-type': 'application/json' };
  const created = await call(
    port,
    'POST',
    '/private/catalog/item',
    json,
    JSON.stringify({ Title: 'History bench lamp', SKU: `hr-${Date.now()}` }),
  );
  const itemId = (JSON.parse(created.body) as { Id: number }).Id;
  // One real change through the API, so that the entries below have a real entry's actor and
  // context; then the rest written straight in, each a version with another title.
  await call(
    port,
    'PATCH',
    `/private/catalog/item/${itemId}`,
    json,
    JSON.stringify({ Title: 'History bench lamp 2' }),
  );
  await db.query(
    `insert into change_history (tenant_id, changed_at, tx_id, resource, resource_id, action,
                                 version, actor, actor_key, context, data)
     select h.tenant_id, h.changed_at + make_interval(secs => v), h.tx_id + v, h.resource,
            h.resource_id, 'updated', h.version + v, h.actor, h.actor_key, h.context,
            replace(h.data, 'History bench lamp 2', 'History bench lamp ' || (v + 2))
       from change_history h, generate_series(1, $3::int) as v
      where h.tenant_id = (select id from tenants where name = $1) and h.resource = 'item'
        and h.resource_id = $2 and h.version = 2`,
    [tenantName, String(itemId), ENTRIES - 2],
  );
  await db.query('analyze change_history');
  const historyPath = `/private/catalog/item/${itemId}/history`;
  let continuation: string | null = null;
  for (let page = 0; page < DEPTH; page++) {
    const query: string = continuation ? `?Continuation=${encodeURIComponent(continuation)}` : '';
    const answer = await call(port, 'GET', `${historyPath}${query}`, headers);
    if (answer.status !== 200)
      throw new Error(`history page ${page}: ${answer.status} ${answer.body}`);
    continuation = (JSON.parse(answer.body) as { Continuation: string | null }).Continuation;
    if (!continuation) throw new Error(`the history ended at page ${page}`);
  }
  const deepPath = `${historyPath}?Continuation=${encodeURIComponent(continuation!)}`;
  const scenarios = {
    'item fetch': `/private/catalog/item/${itemId}`,
    'history, first page': historyPath,
    [`history, page ${DEPTH + 1}`]: deepPath,
  };
  const figures: Record<string, number[]> = {};
  /** Server and PostgreSQL CPU µs per request: steadier than req/s on a loaded host. */
  const cpu: Record<string, number[]> = {};
  let non2xx = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(scenarios);
    for (const name of round % 2 === 0 ? names : names.reverse()) {
      const serverBefore = cpuOf(pid)!;
      const postgresBefore = await postgresCpu(db);
      const result = await autocannon({
        url: `http://127.0.0.1:${port}${scenarios[name]!}`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers,
      });
      const perRequest = (ms: number) => (1000 * ms) / result.requests.total;
      const server = perRequest(cpuOf(pid)! - serverBefore);
      const postgres = perRequest(await postgresCpuSince(db, postgresBefore));
      non2xx += result.non2xx;
      (figures[name] ??= []).push(result.requests.average);
      (cpu[name] ??= []).push(server + postgres);
      console.log(
        `round ${round + 1} ${name}: ${result.requests.average.toFixed(0)} req/s, ` +
          `CPU µs a request: server ${server.toFixed(0)}, PostgreSQL ${postgres.toFixed(0)}`,
      );
    }
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const item = median(figures['item fetch']!);
  console.log(
    `\nreq/s, median of ${ROUNDS} rounds of ${DURATION} s at ${CONNECTIONS} connections, ` +
      `an item with ${ENTRIES} entries (${non2xx} non-2xx):`,
  );
  const itemCpu = median(cpu['item fetch']!);
  for (const [name, values] of Object.entries(figures))
    console.log(
      `  ${name}: ${median(values).toFixed(0)} (${(median(values) / item).toFixed(2)} × item fetch); ` +
        `CPU ${median(cpu[name]!).toFixed(0)} µs a request (item fetch's ÷ this: ` +
        `${(itemCpu / median(cpu[name]!)).toFixed(2)})`,
    );
} finally {
  await db.end();
  await stopServer();
}
