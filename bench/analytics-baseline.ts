// The ingestion baseline: the bench's 1000-record batches written by a bare client (node-pg on
// PostgreSQL, PGlite itself on the embedded database), one multi-row INSERT per batch, from
// BENCH_CONNECTIONS workers for BENCH_DURATION seconds. Prints the batches per second as one
// measurement line for run.ts (a batch per "request", like the HTTP scenario).
// Usage: node bench/analytics-baseline.ts <tenant>   (while the server is stopped)
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { apiBatch, multiRowInsert, storedRow } from './analytics-rows.ts';

export const BASELINE = 'bare client: multi-row INSERT per 1000-record batch (baseline)';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/analytics-baseline.ts <tenant>');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const database = await openDatabase({ ...loadConfig(), poolSize: CONNECTIONS });
try {
  const [tenant] = await database.query<{ id: number }>('select id from tenants where name = $1', [
    tenantName,
  ]);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  const batches = Array.from({ length: 20 }, (_, i) =>
    multiRowInsert(tenant.id, apiBatch(i).map(storedRow)),
  );
  const run = async (seconds: number) => {
    let done = 0;
    const until = Date.now() + seconds * 1000;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          const [text, params] = batches[done++ % batches.length]!;
          await database.query(text, params);
        }
      }),
    );
    return done / (Number(process.hrtime.bigint() - started) / 1e9);
  };
  await run(Math.min(3, DURATION));
  const perSecond = await run(DURATION);
  console.log(
    JSON.stringify({
      scenario: BASELINE,
      requestsPerSecond: Math.round(perSecond * 10) / 10,
      p50: 0,
      p99: 0,
      non2xx: 0,
      errors: 0,
    }),
  );
} finally {
  await database.close();
}
