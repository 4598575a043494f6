// Ids that never run out (migrations 0301–0306). A database at the version before
// them, with the SQL code of that version (fixtures/before-bigint-ids/sql-code) and a row in
// every table (fixtures/before-bigint-ids/rows.sql), on Citus distributed as a server leaves it,
// is migrated: every id is what it was, every id column and sequence is 64-bit, the next insert
// continues each sequence, and no function of the old code with 32-bit ids is left. On Citus an
// insert sent to a worker draws its id there, from the worker's own range. And on a migrated
// database no id column or sequence is 32-bit but those named below, each with its reason.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { distributeNewTables, useCitusDdlSettings } from '../../src/db/citus/distribution.ts';
import { bundledMigrations, migrate } from '../../src/db/schema/migrate.ts';
import { runScript } from '../../src/db/schema/sql-script.ts';
import {
  openEmptyDatabase,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';

const source = inject('testDatabase');
const workers = source.engine === 'postgres' ? source.citusWorkers : undefined;
const citus = workers !== undefined;
// Migrating from nothing and distributing every table: minutes on Citus.
const MIGRATING_TIMEOUT = 300_000;
const BEFORE = path.join(import.meta.dirname, 'fixtures/before-bigint-ids');
const FIRST = '0301';

/** The columns that migrations 0302–0306 make 64-bit, by table. */
const CONVERTED: Record<string, string[]> = {
  price_types: ['id'],
  brands: ['id'],
  categories: ['id', 'parent_id'],
  category_metadata: ['category_id'],
  tags: ['id'],
  dynamic_attribute_types: ['id'],
  dynamic_attribute_values: ['id', 'type_id'],
  items: [
    'id',
    'category_id',
    'brand_id',
    'default_item_id',
    'facet_tag_ids',
    'facet_value_ids',
    'facet_price_type_ids',
  ],
  item_prices: ['id', 'item_id', 'price_type_id'],
  item_attributes: ['item_id', 'type_id', 'value_id'],
  item_tags: ['item_id', 'tag_id'],
  item_assets: ['item_id', 'asset_id'],
  brand_assets: ['brand_id', 'asset_id'],
  category_assets: ['category_id', 'asset_id'],
  item_search_rows: [
    'item_id',
    'default_item_id',
    'category_id',
    'brand_id',
    'facet_tag_ids',
    'facet_value_ids',
    'facet_price_type_ids',
  ],
  catalog_imports: ['id', 'source_asset_id'],
  catalog_import_groups: ['import_id', 'default_item_id'],
  catalog_import_results: ['import_id'],
  catalog_import_skus: ['import_id'],
  catalog_exports: ['id', 'asset_id'],
  stores: ['id'],
  physical_devices: ['store_id'],
  device_types: ['id'],
  logical_devices: ['device_type_id'],
  webhook_subscriptions: ['id'],
  webhook_deliveries: ['subscription_id'],
  analytics_logs: ['item_id', 'store_id'],
  analytics_logs_default: ['item_id', 'store_id'],
  assets: ['id'],
};

/**
 * The id columns that stay 32-bit (or 16-bit), each with its reason; any other `id`, `…_id` or
 * `…_ids` column that is not 64-bit fails the schema test, and so does one listed here that is.
 */
const NOT_64_BIT: Record<string, string> = {
  'tenants.id':
    'tenant ids: tenant_id is the distribution column of every tenant table, whose type Citus does not change (docs/design.md, "Ids")',
  'integration_service_names.owner_tenant_id': 'a tenant id (as tenants.id)',
  'items.item_status_id': 'a status (1 Active, 2 Passive), not an id drawn from a sequence',
  'item_search_rows.item_status_id': 'the item status, as items.item_status_id',
  'item_search_counts.item_status_id': 'the item status, as items.item_status_id',
  'oauth_apps.application_type_id': 'an application type (1..4), not an id drawn from a sequence',
  'analytics_secrets.id': 'the one row of the table (check id = 1)',
};
const SEQUENCES_NOT_64_BIT: Record<string, string> = {
  tenants_id_seq: 'tenant ids (tenants.id above)',
};

/** The SQL code files as they were at the version before the migrations, in the order applied. */
async function codeBefore(): Promise<{ name: string; text: string }[]> {
  const dir = path.join(BEFORE, 'sql-code');
  const names = (await readdir(dir, { recursive: true, encoding: 'utf8' }))
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.split(path.sep).join('/'))
    // src/db/sql first, then each module's folder, modules by name (src/db/schema/sql-code.ts).
    .map((name) => ({ name, key: `${name.startsWith('db/') ? 0 : 1}${name}` }))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map(({ name }) => name);
  return Promise.all(
    names.map(async (name) => ({ name, text: await readFile(path.join(dir, name), 'utf8') })),
  );
}

/** A database as the server before the migrations left it: migrated, its code applied, distributed. */
async function databaseBefore(database: DatabaseHandle): Promise<void> {
  await migrate(
    database,
    (await bundledMigrations()).filter((m) => m.version < FIRST),
  );
  await database.rawTransaction(async (sql) => {
    if (citus) await useCitusDdlSettings(sql);
    for (const file of await codeBefore()) await runScript(sql, file.text, citus);
    if (citus) await distributeNewTables(sql);
  });
  const rows = await readFile(path.join(BEFORE, 'rows.sql'), 'utf8');
  await runScript(database, rows, citus);
  // A second item of tenant 1 with its children, so that ids go past 1.
  await database.exec(`
    insert into items (tenant_id, title, sku, brand_id, category_id) values (1, 'Hurricane lamp', 'LAN-3', 1, 1);
    insert into item_prices (tenant_id, item_id, price_type_id, normal_price) values (1, 4, 1, 12);
    insert into item_tags (tenant_id, item_id, tag_id) values (1, 4, 1);
  `);
}

/**
 * Columns that migrations after these add (null on the rows made before them): left out of the
 * comparison, which is of the values the rows had.
 */
const ADDED_LATER = ['started_by', 'password_set_at', 'secret_set_at'];

/** The rows of the tables the migrations change, each table's rows in a fixed order. */
async function convertedRows(database: DatabaseHandle): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of Object.keys(CONVERTED)) {
    const rows = await database.query<{ row: string }>(
      `select (to_jsonb(t) - $1::text[])::text as row from ${table} t order by 1`,
      [ADDED_LATER],
    );
    dump[table] = rows.map((r) => r.row);
  }
  return dump;
}

interface Column {
  table: string;
  column: string;
  type: string;
}

async function columnTypes(database: DatabaseHandle): Promise<Column[]> {
  return database.query<Column>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, null) as type
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
        and a.attnum > 0 and not a.attisdropped
      order by 1, 2`,
  );
}

interface Sequence {
  name: string;
  type: string;
  last: number;
  called: boolean;
}

/** The sequences of the public schema, with the value each stopped at on the node asked. */
async function sequences(database: DatabaseHandle): Promise<Sequence[]> {
  const rows = await database.query<{ name: string; type: string }>(
    `select c.relname as name, format_type(s.seqtypid, null) as type
       from pg_sequence s join pg_class c on c.oid = s.seqrelid
      where c.relnamespace = 'public'::regnamespace order by 1`,
  );
  const out: Sequence[] = [];
  for (const row of rows) {
    const [state] = await database.query<{ last: number; called: boolean }>(
      `select last_value as last, is_called as called from ${row.name}`,
    );
    out.push({ ...row, last: Number(state!.last), called: state!.called });
  }
  return out;
}

/** Our functions (not an extension's), by signature. */
async function functions(database: DatabaseHandle): Promise<string[]> {
  const rows = await database.query<{ signature: string }>(
    `select p.oid::regprocedure::text as signature from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
                          and d.objid = p.oid and d.deptype = 'e')
      order by 1`,
  );
  return rows.map((r) => r.signature);
}

/** Functions with an argument (or result column) that is an id of the catalog's, as integer. */
async function functionsWithIntegerIds(database: DatabaseHandle): Promise<string[]> {
  const rows = await database.query<{ signature: string }>(
    `select distinct p.oid::regprocedure::text as signature
       from pg_proc p,
            unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as t (type, n)
      where p.pronamespace = 'public'::regnamespace
        and t.type in ('integer'::regtype, 'integer[]'::regtype)
        and p.proargnames[t.n] ~ '(^|_)(ids?|item|items|category|categories|brand|brands)$'
      order by 1`,
  );
  return rows.map((r) => r.signature);
}

function workerUrl(node: { host: string; port: number }, database: string): string {
  const url = new URL(source.engine === 'postgres' ? source.url : 'postgres://localhost');
  url.hostname = node.host;
  url.port = String(node.port);
  url.pathname = `/${database}`;
  return url.toString();
}

describe('migrations 0301–0306 (64-bit ids) on a database in use', () => {
  let database: DatabaseHandle;
  let fresh: TestDatabase;

  beforeAll(async () => {
    database = await openEmptyDatabase();
    fresh = await openTestDatabase();
  }, MIGRATING_TIMEOUT);
  afterAll(() => Promise.all([database?.close(), fresh?.handle.close()]));

  it(
    'keep every id, make every id column and sequence 64-bit, and continue each sequence',
    async () => {
      await databaseBefore(database);
      const rowsBefore = await convertedRows(database);
      for (const [table, rows] of Object.entries(rowsBefore))
        expect(rows.length, `${table} has rows to carry`).toBeGreaterThan(0);
      const sequencesBefore = await sequences(database);
      expect(
        (await columnTypes(database)).find((c) => c.table === 'items' && c.column === 'id')?.type,
      ).toBe('integer');
      expect(await functionsWithIntegerIds(database)).toContain('brand_data(integer,text)');

      const applied = await migrate(database, await bundledMigrations());
      expect(applied).toEqual(
        expect.arrayContaining([
          '0301_bigint_ids',
          '0302_catalog_bigint_ids',
          '0303_company_bigint_ids',
          '0304_events_bigint_ids',
          '0305_analytics_bigint_ids',
        ]),
      );

      // Every id is what it was (and every other value of those rows).
      expect(await convertedRows(database)).toEqual(rowsBefore);
      const types = await columnTypes(database);
      for (const [table, columns] of Object.entries(CONVERTED))
        for (const column of columns)
          expect(
            types.find((c) => c.table === table && c.column === column)?.type,
            `${table}.${column}`,
          ).toMatch(/^bigint(\[\])?$/);
      // Each sequence stopped where it was, as a bigint.
      const after = new Map((await sequences(database)).map((s) => [s.name, s]));
      for (const before of sequencesBefore) {
        const now = after.get(before.name);
        expect({ name: before.name, last: now?.last, called: now?.called }).toEqual({
          name: before.name,
          last: before.last,
          called: before.called,
        });
        if (!(before.name in SEQUENCES_NOT_64_BIT)) expect(now?.type, before.name).toBe('bigint');
      }
      expect(await functionsWithIntegerIds(database)).toEqual([]);
      // No function of the old code is left beside the new one.
      expect(await functions(database)).toEqual(await functions(fresh.handle));

      // The next rows continue the sequences, through the code of today (documents, search rows).
      const items = after.get('items_id_seq')!;
      const [item] = await database.query<{ id: number; document: string }>(
        `insert into items (tenant_id, title, brand_id, category_id) values (1, 'Oil lamp', 1, 2)
         returning id, document`,
      );
      expect(item!.id).toBe(items.last + 1);
      await database.query(
        'insert into item_prices (tenant_id, item_id, price_type_id, normal_price) values (1, $1, 1, 9)',
        [item!.id],
      );
      const [written] = await database.query<{ document: string; facets: number[] }>(
        `select document, facet_price_type_ids as facets from items where tenant_id = 1 and id = $1`,
        [item!.id],
      );
      expect(JSON.parse(written!.document)).toMatchObject({
        Id: item!.id,
        BrandId: 1,
        CategoryId: 2,
        Prices: [{ ItemId: item!.id, PriceTypeId: 1, NormalPrice: 9 }],
      });
      expect(written!.facets).toEqual([1]);
      const [store] = await database.query<{ id: number }>(
        "insert into stores (tenant_id, name, longitude, latitude) values (1, 'Quay', 1, 1) returning id",
      );
      expect(store!.id).toBe(after.get('stores_id_seq')!.last + 1);
      const [search] = await database.query<{ n: number }>(
        'select count(*)::int as n from item_search_rows where tenant_id = 1 and item_id = $1',
        [item!.id],
      );
      expect(search!.n).toBe(1);
    },
    MIGRATING_TIMEOUT,
  );

  it.runIf(citus)(
    'let an insert sent to a worker draw its id on that worker',
    async () => {
      const [{ name }] = (await database.query<{ name: string }>(
        'select current_database() as name',
      )) as [{ name: string }];
      const nodes = await database.query<{ host: string; port: number; group: number }>(
        'select nodename as host, nodeport as port, groupid as "group" from pg_dist_node where groupid <> 0 order by groupid',
      );
      expect(nodes.length).toBeGreaterThan(0);
      for (const node of nodes) {
        const client = new pg.Client({ connectionString: workerUrl(node, name) });
        await client.connect();
        try {
          const [sequence] = (
            await client.query<{ type: string; start: string }>(
              `select format_type(seqtypid, null) as type, seqstart::text as start
                 from pg_sequence where seqrelid = 'items_id_seq'::regclass`,
            )
          ).rows;
          // Citus gives each worker group the range from group << 48.
          expect(sequence).toEqual({ type: 'bigint', start: String(node.group * 2 ** 48 + 1) });
          for (const tenant of [1, 2]) {
            const { rows } = await client.query<{ id: string }>(
              `insert into items (tenant_id, title) values ($1, 'Drawn on a worker') returning id::text as id`,
              [tenant],
            );
            const id = BigInt(rows[0]!.id);
            expect(id >= BigInt(node.group) * 2n ** 48n).toBe(true);
            expect(id < BigInt(node.group + 1) * 2n ** 48n).toBe(true);
            expect(id <= BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
          }
          const { rows: stores } = await client.query<{ id: string }>(
            "insert into stores (tenant_id, name, longitude, latitude) values (1, 'Worker', 1, 1) returning id::text as id",
          );
          expect(BigInt(stores[0]!.id) >= BigInt(node.group) * 2n ** 48n).toBe(true);
        } finally {
          await client.end();
        }
      }
      // Read back through the coordinator, as the API reads it: JSON integers.
      const drawn = await database.query<{ id: number; document: string }>(
        "select id, document from items where tenant_id = 1 and title = 'Drawn on a worker'",
      );
      expect(drawn.length).toBe(nodes.length);
      for (const row of drawn) {
        expect(typeof row.id).toBe('number');
        expect(JSON.parse(row.document)).toMatchObject({ Id: row.id });
      }
    },
    MIGRATING_TIMEOUT,
  );
});

describe('a migrated database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.handle.close());

  it('has no id column and no sequence of 32 bits or fewer but those named, with their reasons', async () => {
    const narrow = (await columnTypes(database.handle))
      .filter((c) => /^(smallint|integer)(\[\])?$/.test(c.type))
      .filter((c) => /(^|_)ids?$/.test(c.column) && c.column !== 'tenant_id')
      .map((c) => `${c.table}.${c.column}`)
      // A partition's columns are its table's.
      .filter((name) => !name.startsWith('analytics_logs_'));
    expect(narrow.sort()).toEqual(Object.keys(NOT_64_BIT).sort());
    const narrowSequences = (await sequences(database.handle))
      .filter((s) => s.type !== 'bigint')
      .map((s) => s.name);
    expect(narrowSequences.sort()).toEqual(Object.keys(SEQUENCES_NOT_64_BIT).sort());
  });

  it('reads an int8 as a number when it is a safe integer, as a bigint beyond, on either engine', async () => {
    const [row] = await database.handle.query<{ id: unknown; ids: unknown; big: unknown }>(
      `select 3000000001::int8 as id, array[1, 9007199254740991]::int8[] as ids,
              9007199254740993::int8 as big`,
    );
    expect(row).toEqual({
      id: 3_000_000_001,
      ids: [1, Number.MAX_SAFE_INTEGER],
      big: 9007199254740993n,
    });
    const [prepared] = await database.handle.prepared<{ id: unknown }>(
      'bigint-ids-test',
      'select $1::int8 as id',
      [3_000_000_001],
    );
    expect(prepared).toEqual({ id: 3_000_000_001 });
  });
});
