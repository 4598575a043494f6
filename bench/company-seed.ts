// Seeds a tenant's stores and devices for the nearest-store bench: 100k stores (BENCH_STORES)
// spread over the sphere (see company-stores.ts), two physical devices per store and five
// logical devices per physical device (1M), with three device types, one metadata pair each
// and a fifth of them expired.
// Usage: node bench/company-seed.ts <tenant>   (same DATA_DIR / DATABASE_URL as the server)
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { COMPANY_STORES, GOLDEN_ANGLE_DEGREES } from './company-stores.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/company-seed.ts <tenant>');

const database = await openDatabase(loadConfig());
try {
  const [tenant] = await database.query<{ id: number }>('select id from tenants where name = $1', [
    tenantName,
  ]);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  await database.rawTransaction(async (sql) => {
    const t = tenant.id;
    await sql.query(
      `insert into stores (tenant_id, name, address, longitude, latitude)
       select $1, 'Store ' || g, 'Street ' || g,
              g * $3::float8 - 360 * floor(g * $3::float8 / 360) - 180,
              degrees(asin(1 - (2 * g - 1)::float8 / $2))
         from generate_series(1, $2::int) g`,
      [t, COMPANY_STORES, GOLDEN_ANGLE_DEGREES],
    );
    await sql.query(
      `insert into device_types (tenant_id, description) values ($1, 'Kiosk'), ($1, 'InStore'), ($1, 'Signage')`,
      [t],
    );
    await sql.query(
      `insert into physical_devices (tenant_id, id, description, store_id)
       select $1, 'pd-' || s.id || '-' || k, 'Screen ' || k, s.id
         from stores s, generate_series(1, 2) k where s.tenant_id = $1`,
      [t],
    );
    await sql.query(
      `insert into logical_devices
         (tenant_id, id, physical_device_id, description, device_type_id, expiration_date, metadata)
       select $1, p.id || '-' || k, p.id, 'App ' || k,
              (select array_agg(id order by id) from device_types where tenant_id = $1)[1 + k % 3],
              case when k = 5 then now() - interval '1 day' end,
              jsonb_build_array(jsonb_build_object('Key', 'lang', 'Value', case when k % 2 = 0 then 'en' else 'tr' end))
         from physical_devices p, generate_series(1, 5) k where p.tenant_id = $1`,
      [t],
    );
  });
  await database.exec('vacuum analyze stores, physical_devices, logical_devices, device_types');
  const [counts] = await database.query<{ stores: number; logical: number }>(
    `select (select count(*)::int from stores where tenant_id = $1) as stores,
            (select count(*)::int from logical_devices where tenant_id = $1) as logical`,
    [tenant.id],
  );
  console.log(JSON.stringify(counts));
} finally {
  await database.close();
}
