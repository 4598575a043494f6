// Compares the ways of writing a 1000-record batch into analytics_logs on PostgreSQL, with the
// same rows and concurrency: one multi-row INSERT (the bare-client baseline), one array-parameter
// INSERT … SELECT FROM unnest(…) (what the module does), one INSERT … SELECT FROM
// jsonb_to_recordset($1) and COPY FROM STDIN (pg-copy-streams). The figures are in docs/design.md,
// "Analytics ingestion". Usage: BENCH_DATABASE_URL=postgres://… node bench/analytics-ingest-methods.ts
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { apiBatch, multiRowInsert, storedRow } from './analytics-rows.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required (PostgreSQL only)');
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 200);

const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
const [tenant] = (await pool.query<{ id: number }>('select id from tenants order by id limit 1'))
  .rows;
if (!tenant) throw new Error('the database needs a tenant (omni tenant create …)');
const tenantId = tenant.id;
const batches = Array.from({ length: 20 }, (_, i) => apiBatch(i).map(storedRow));

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

const methods: Record<string, (client: pg.PoolClient, rows: unknown[][]) => Promise<unknown>> = {
  'multi-row INSERT (baseline)': (client, rows) => {
    const [text, params] = multiRowInsert(tenantId, rows);
    return client.query(text, params);
  },
  'INSERT … SELECT FROM unnest(arrays)': (client, rows) =>
    client.query({
      name: 'unnest',
      text: `insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record)
             select $1, * from unnest($2::int2[], $3::timestamptz[], $4::int4[], $5::int4[], $6::text[], $7::jsonb[])`,
      values: [tenantId, ...[0, 1, 2, 3, 4, 5].map((c) => rows.map((r) => r[c]))],
    }),
  'INSERT … SELECT FROM jsonb_to_recordset': (client, rows) =>
    client.query({
      name: 'recordset',
      text: `insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record)
             select $1, c, t, i, s, d, r from jsonb_to_recordset($2::jsonb)
               as x(c int2, t timestamptz, i int4, s int4, d text, r jsonb)`,
      values: [
        tenantId,
        JSON.stringify(
          rows.map((r) => ({
            c: r[0],
            t: r[1],
            i: r[2],
            s: r[3],
            d: r[4],
            r: JSON.parse(r[5] as string) as unknown,
          })),
        ),
      ],
    }),
  'COPY FROM STDIN (text)': async (client, rows) => {
    await pipeline(
      Readable.from([copyText(rows)]),
      client.query(
        copyFrom(
          'copy analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record) from stdin',
        ),
      ),
    );
  },
};

for (const [name, write] of Object.entries(methods)) {
  for (const round of [0, 1]) {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const client = await pool.connect();
        try {
          while (next < BATCHES) await write(client, batches[next++ % batches.length]!);
        } finally {
          client.release();
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (round === 1)
      console.log(`${name.padEnd(42)} ${Math.round((BATCHES * 1000) / seconds)} rows/s`);
  }
}
await pool.query(
  `delete from analytics_logs where tenant_id = $1 and physical_device_id like 'kiosk-%' and created_at > now() - interval '1 hour'`,
  [tenantId],
);
await pool.end();
