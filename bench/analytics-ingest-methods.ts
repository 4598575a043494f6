// Compares the ways of writing a 1000-record batch into analytics_logs on PostgreSQL, with the
// same rows: one multi-row INSERT (the bare-client baseline), one array-parameter INSERT …
// SELECT FROM unnest(…), COPY FROM STDIN in text and in binary format (what the module does).
// Two measures per method: rows/s from BENCH_CONNECTIONS concurrent clients, and the CPU time per
// batch of one client's database backend (read from /proc, so PostgreSQL must run on this
// machine) and of this process; the CPU times hold up better than rows/s on a shared machine.
// The figures are in docs/design.md, "Analytics ingestion".
// Usage: BENCH_DATABASE_URL=postgres://… node bench/analytics-ingest-methods.ts
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { BinaryCopyWriter } from '../src/db/queries/binary-copy.ts';
import { apiBatch, multiRowInsert, storedRow } from './analytics-rows.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required (PostgreSQL only)');
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CPU_BATCHES = 100;
const COLUMNS = '(tenant_id, counter, created_at, item_id, store_id, physical_device_id, record)';

const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
const [tenant] = (await pool.query<{ id: number }>('select id from tenants order by id limit 1'))
  .rows;
if (!tenant) throw new Error('the database needs a tenant (omni tenant create …)');
const tenantId = tenant.id;
// Dated now: the rows land in the current month's partition, as the API's do.
const batches = Array.from({ length: 20 }, (_, i) => apiBatch(i).map(storedRow));
const column = (rows: unknown[][], c: number) => rows.map((r) => r[c]);

const copyText = (rows: unknown[][]) =>
  rows
    .map((row) =>
      [tenantId, ...row]
        .map((v) =>
          v === null
            ? '\\N'
            : String(v as string | number)
                .replace(/\\/g, '\\\\')
                .replace(/\t/g, '\\t')
                .replace(/\n/g, '\\n'),
        )
        .join('\t'),
    )
    .join('\n') + '\n';

const copyBinary = (rows: unknown[][]) => {
  const writer = new BinaryCopyWriter(rows.length * 256);
  for (const r of rows)
    writer
      .row(7)
      .int4(tenantId)
      .int2(r[0] as number)
      .timestamptz(Date.parse(r[1] as string))
      .int4(r[2] as number | null)
      .int4(r[3] as number | null)
      .text(r[4] as string | null)
      .text(r[5] as string);
  return writer.finish();
};

const copy = (client: pg.PoolClient, statement: string, data: string | Buffer) =>
  new Promise<void>((resolve, reject) => {
    const stream = client.query(copyFrom(statement));
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });

const methods: Record<string, (client: pg.PoolClient, rows: unknown[][]) => Promise<unknown>> = {
  'multi-row INSERT (baseline)': (client, rows) => {
    const [text, params] = multiRowInsert(tenantId, rows);
    return client.query(text, params);
  },
  'INSERT … SELECT FROM unnest(arrays)': (client, rows) =>
    client.query({
      name: 'unnest',
      text: `insert into analytics_logs ${COLUMNS}
             select $1, * from unnest($2::int2[], $3::timestamptz[], $4::int4[], $5::int4[], $6::text[], $7::text[])`,
      values: [tenantId, ...[0, 1, 2, 3, 4, 5].map((c) => column(rows, c))],
    }),
  'COPY FROM STDIN, text': (client, rows) =>
    copy(client, `copy analytics_logs ${COLUMNS} from stdin`, copyText(rows)),
  'COPY FROM STDIN, binary (kept)': (client, rows) =>
    copy(client, `copy analytics_logs ${COLUMNS} from stdin (format binary)`, copyBinary(rows)),
};

/** User+system CPU milliseconds of a local process. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10;
};

for (const [name, write] of Object.entries(methods)) {
  // CPU per batch, one client at a time.
  const client = await pool.connect();
  let backend: number;
  let own: number;
  try {
    const [{ pid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid'))
      .rows as [{ pid: number }];
    for (let i = 0; i < 20; i++) await write(client, batches[i % batches.length]!);
    const backendBefore = cpuMs(pid);
    const ownBefore = process.cpuUsage();
    for (let i = 0; i < CPU_BATCHES; i++) await write(client, batches[i % batches.length]!);
    backend = (cpuMs(pid) - backendBefore) / CPU_BATCHES;
    const used = process.cpuUsage(ownBefore);
    own = (used.user + used.system) / 1000 / CPU_BATCHES;
  } finally {
    client.release();
  }
  // Throughput, CLIENTS at once.
  let done = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = await pool.connect();
      try {
        while (Date.now() < until) await write(c, batches[done++ % batches.length]!);
      } finally {
        c.release();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `${name.padEnd(36)} ${String(Math.round((done * 1000) / seconds)).padStart(7)} rows/s` +
      `  backend ${backend.toFixed(1)} ms/batch  client ${own.toFixed(1)} ms/batch`,
  );
}
await pool.query(
  `delete from analytics_logs where tenant_id = $1 and physical_device_id like 'kiosk-%' and created_at > now() - interval '1 hour'`,
  [tenantId],
);
await pool.end();
