// Migration 0200 (the lookups behind the rules of unique price type symbols and sibling category
// names) on a database that already holds duplicates from before the rules: it applies, and the
// duplicates stay where they were (docs/design.md, "Names without a unique index").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledMigrations, migrate } from '../../../src/db/schema/migrate.ts';
import { openTestDatabase, type TestDatabase } from '../../support/test-database.ts';

const VERSION = '0200_catalog_name_lookups';

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.handle.close());

describe(`migration ${VERSION}`, () => {
  it('applies over duplicate price type symbols and sibling category names, and keeps them', async () => {
    const sql = database.handle;
    // The database as it was before the migration, with what the rules now refuse.
    // One statement at a time: Citus takes DDL on a distributed table only alone.
    await sql.exec('drop index categories_name');
    await sql.exec('drop index price_types_symbol');
    await sql.exec(`delete from schema_migrations where version = '${VERSION}'`);
    const [tenant] = await sql.query<{ id: number }>(
      "insert into tenants (name) values ('before-0200') returning id",
    );
    const [root] = await sql.query<{ id: number }>(
      `insert into categories (tenant_id, name) values ($1, 'Shoes'), ($1, 'shoes') returning id`,
      [tenant!.id],
    );
    await sql.query(
      `insert into categories (tenant_id, name, parent_id) values ($1, 'Boots', $2), ($1, 'BOOTS', $2)`,
      [tenant!.id, root!.id],
    );
    await sql.query(
      `insert into price_types (tenant_id, description, symbol)
       values ($1, 'Euro', 'EUR'), ($1, 'Euro again', 'EUR'), ($1, 'euro', 'eur')`,
      [tenant!.id],
    );

    expect(await migrate(sql, await bundledMigrations())).toEqual([VERSION]);

    const indexes = await sql.query<{ name: string }>(
      `select indexname as name from pg_indexes
        where indexname in ('categories_name', 'price_types_symbol') order by indexname`,
    );
    expect(indexes.map((i) => i.name)).toEqual(['categories_name', 'price_types_symbol']);
    const [counts] = await sql.query<{ categories: number; priceTypes: number }>(
      `select (select count(*)::int from categories where tenant_id = $1) as categories,
              (select count(*)::int from price_types where tenant_id = $1) as "priceTypes"`,
      [tenant!.id],
    );
    expect(counts).toEqual({ categories: 4, priceTypes: 3 });
  });
});
