// Seeds a tenant's analytics logs for the bench with set-based SQL: BENCH_ANALYTICS_ROWS ItemView
// records (10M on PostgreSQL, 1M on PGlite by default) 200 ms apart in a past month, and prints
// the log query over them and a continuation token 500 records before their end (a deep page).
// Usage: node bench/analytics-seed.ts <tenant>   (same DATA_DIR / DATABASE_URL as the server)
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { ensurePartitions } from '../src/modules/analytics/analytics-partitions.ts';
import { ContinuationTokens } from '../src/modules/analytics/continuation-tokens.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/analytics-seed.ts <tenant>');
const config = loadConfig();
const ROWS = Number(
  process.env.BENCH_ANALYTICS_ROWS ?? (config.databaseUrl ? 10_000_000 : 1_000_000),
);
const CHUNK = 1_000_000;
const STEP_MS = 200;

const database = await openDatabase(config);
try {
  const [tenant] = await database.query<{ id: number }>('select id from tenants where name = $1', [
    tenantName,
  ]);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
  await ensurePartitions(database, start, 3);
  for (let first = 0; first < ROWS; first += CHUNK) {
    await database.query(
      `insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record)
       select $1, 9, $2::timestamptz + g * interval '${STEP_MS} milliseconds', 1 + g % 5000, 1 + g % 12,
              'kiosk-' || (g % 50),
              json_build_object('ItemId', 1 + g % 5000, 'ItemTitle', 'Item ' || (1 + g % 5000),
                                 'BrandId', 1 + g % 40, 'CategoryId', 1 + g % 90,
                                 'StoreId', 1 + g % 12, 'PhysicalDeviceId', 'kiosk-' || (g % 50))::text
         from generate_series($3::int, $4::int) g`,
      [tenant.id, start.toISOString(), first, Math.min(first + CHUNK, ROWS) - 1],
    );
    process.stderr.write(`analytics seed: ${Math.min(first + CHUNK, ROWS)} of ${ROWS} rows\n`);
  }
  await database.query('analyze analytics_logs');
  const from = start.toISOString();
  const to = new Date(start.getTime() + ROWS * STEP_MS).toISOString();
  const deepAt = new Date(start.getTime() + (ROWS - 500) * STEP_MS);
  const [deep] = await database.query<{ id: string; key: string }>(
    `select id::text as id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key
       from analytics_logs where tenant_id = $1 and counter = 9 and created_at = $2`,
    [tenant.id, deepAt.toISOString()],
  );
  const filters = JSON.stringify([from, to, null, null, null]);
  const deepToken = await new ContinuationTokens(database).issue(tenant.id, 9, filters, {
    time: deep!.key,
    id: deep!.id,
  });
  console.log(JSON.stringify({ rows: ROWS, from, to, deepToken }));
} finally {
  await database.close();
}
