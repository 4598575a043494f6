// Seeds a tenant's catalog for the bench: 100k items (override with BENCH_ITEMS), each with two
// prices, two dynamic attributes and a tag, spread over brands and a 3-level category tree.
// Usage: node bench/seed-catalog.ts <tenant>   (same DATA_DIR / DATABASE_URL as the server)
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { takeItemIds } from './item-ids.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/seed-catalog.ts <tenant>');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);

const database = await openDatabase(loadConfig());
try {
  const [tenant] = await database.query<{ id: number }>('select id from tenants where name = $1', [
    tenantName,
  ]);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  await database.rawTransaction(async (sql) => {
    const t = tenant.id;
    await sql.query(
      `insert into price_types (tenant_id, description, symbol) values ($1, 'USD', '$'), ($1, 'EUR', '€')`,
      [t],
    );
    await sql.query(
      `insert into brands (tenant_id, name) select $1, 'Brand ' || g from generate_series(1, 50) g`,
      [t],
    );
    await sql.query(
      `insert into categories (tenant_id, name) select $1, 'Department ' || g from generate_series(1, 5) g`,
      [t],
    );
    await sql.query(
      `insert into categories (tenant_id, name, parent_id)
       select $1, 'Category ' || c.id || '.' || g, c.id from categories c, generate_series(1, 4) g where c.tenant_id = $1`,
      [t],
    );
    await sql.query(
      `insert into tags (tenant_id, name) select $1, 'Tag ' || g from generate_series(1, 20) g`,
      [t],
    );
    await sql.query(
      `insert into dynamic_attribute_types (tenant_id, description) values ($1, 'Color'), ($1, 'Size')`,
      [t],
    );
    await sql.query(
      `insert into dynamic_attribute_values (tenant_id, type_id, value)
       select $1, d.id, v from dynamic_attribute_types d,
              unnest(array['Red','Green','Blue','Black','White','S','M','L','XL','XXL']) v where d.tenant_id = $1`,
      [t],
    );
    // The item ids and the tenant's rows named by number are read first, by statements of their
    // own: Citus plans no cross join of two distributed tables.
    const itemIds = await takeItemIds(sql, ITEMS);
    const idsOf = async (text: string, params: unknown[] = [t]) =>
      (await sql.query<{ ids: number[] }>(text, params))[0]!.ids;
    const of = (table: string) =>
      idsOf(`select array_agg(id order by id) as ids from ${table} where tenant_id = $1`);
    const [categories, brands, priceTypes, tags, attributeTypes] = [
      await of('categories'),
      await of('brands'),
      await of('price_types'),
      await of('tags'),
      await of('dynamic_attribute_types'),
    ];
    // Each item is written once, its document built by the items trigger from rows already
    // there (as search-seed.ts does): its prices, attributes and tags go in first, their own
    // triggers and reference checks skipped for these statements only (on Citus the setting goes
    // with them to the workers).
    await sql.exec(`set local citus.propagate_set_commands = 'local'`);
    await sql.exec(`set local session_replication_role = replica`);
    await sql.query(
      `insert into item_prices (tenant_id, item_id, price_type_id, normal_price, discount_price)
       select $1, i.id, p.id, 10 + i.id % 200, case when i.id % 4 = 0 then 5 + i.id % 100 end
         from unnest($2::int[]) as i (id) cross join unnest($3::int[]) as p (id)`,
      [t, itemIds, priceTypes],
    );
    for (const typeId of attributeTypes) {
      const values = await idsOf(
        `select array_agg(id order by id) as ids from dynamic_attribute_values
          where tenant_id = $1 and type_id = $2`,
        [t, typeId],
      );
      await sql.query(
        `insert into item_attributes (tenant_id, item_id, type_id, value_id)
         select $1, i.id, $3, ($4::int[])[1 + i.id % 5] from unnest($2::int[]) as i (id)`,
        [t, itemIds, typeId, values],
      );
    }
    await sql.query(
      `insert into item_tags (tenant_id, item_id, tag_id)
       select $1, i.id, ($3::int[])[1 + i.id % 20] from unnest($2::int[]) as i (id)`,
      [t, itemIds, tags],
    );
    await sql.exec(`set local session_replication_role = origin`);
    // Statistics that see those rows keep the documents' reads on the primary keys.
    await sql.exec('analyze item_prices, item_attributes, item_tags');
    await sql.query(
      `insert into items (tenant_id, id, sku, name, title, model, short_description, category_id, brand_id, in_stock, rating)
       select $1, u.id, 'SKU-' || g, 'Item ' || g, 'Product ' || g || ' ' || (array['shirt','shoe','hat','bag','watch'])[1 + g % 5],
              'M' || (g % 300), 'A fine product number ' || g, ($3::int[])[1 + g % 25], ($4::int[])[1 + g % 50],
              g % 3 <> 0, (g % 50) / 10.0
         from unnest($2::int[]) with ordinality as u (id, n), lateral (select n::int as g) s`,
      [t, itemIds, categories, brands],
    );
  });
  // What autovacuum does to a settled table: index-only scans need the visibility map.
  await database.exec('vacuum analyze');
  const [range] = await database.query<{ min: number; max: number }>(
    'select min(i.id) as min, max(i.id) as max from items i join tenants t on t.id = i.tenant_id where t.name = $1',
    [tenantName],
  );
  console.log(JSON.stringify({ items: ITEMS, minItemId: range?.min, maxItemId: range?.max }));
} finally {
  await database.close();
}
