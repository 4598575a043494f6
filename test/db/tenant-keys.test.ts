// Ready to shard by tenant: the migrated schema follows the distribution rule of Citus (the engine
// the architecture names for outgrowing one PostgreSQL; README, "PostgreSQL and several instances"). Every table in `public` is either
// tenant data — it has a `tenant_id` column, which becomes the distribution column — or one of
// the global tables listed below, which become reference tables and carry no `tenant_id`.
// A tenant table has `tenant_id` not null, in its primary key, in every unique constraint, unique
// index and exclusion constraint, and in every foreign key to another tenant table (matched to
// that table's `tenant_id`). Foreign keys to global tables are fine; a global table never refers
// to tenant data. New tables are held to this without being named here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** Global facts: one row for the whole platform, or platform-wide uniqueness (reference tables). */
const GLOBAL_TABLES = [
  'tenants',
  'signing_keys',
  'schema_migrations',
  'gateway_rate_windows',
  'integration_service_names',
  // The secret that signs analytics continuation tokens, one for the platform (every instance).
  'analytics_secrets',
  // The blobs stored before blobs were kept by tenant (migration 0310), under their hash alone.
  'storage_shared_blobs',
  // Durable jobs' runs and crash counts, keyed by queue and job (the key names the tenant).
  'job_runs',
  // The global tables that stay on a Citus coordinator instead of becoming reference tables.
  'coordinator_local_tables',
  // The SQL code files applied, and their text's hash (src/db/schema/sql-code.ts).
  'sql_code_files',
  // The foreign keys `omni distribute` has yet to make again (src/db/citus/distribution.ts).
  'distribution_pending_keys',
  // On a failover pair, the markers write transactions leave before they commit (src/db/failover/commit-outcomes.ts).
  'commit_markers',
];

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.handle.close());

interface TableRow {
  name: string;
  tenantColumn: number | null;
  tenantNotNull: boolean | null;
}
interface UniqueIndexRow {
  tableName: string;
  indexName: string;
  keyColumns: number[];
  isPrimary: boolean;
}
interface ConstraintRow {
  tableName: string;
  name: string;
  kind: string;
  columns: number[];
  refTable: string | null;
  refColumns: number[] | null;
  refTenantColumn: number | null;
}

async function tables(): Promise<TableRow[]> {
  return database.handle.query<TableRow>(
    `select c.relname as name, a.attnum as "tenantColumn", a.attnotnull as "tenantNotNull"
       from pg_class c
       left join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`,
  );
}

async function uniqueIndexes(): Promise<UniqueIndexRow[]> {
  // indkey lists the key columns first (then INCLUDE columns); 0 stands for an expression.
  return database.handle.query<UniqueIndexRow>(
    `select t.relname as "tableName", i.relname as "indexName", x.indisprimary as "isPrimary",
            (string_to_array(x.indkey::text, ' ')::int[])[1:x.indnkeyatts] as "keyColumns"
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
      where t.relnamespace = 'public'::regnamespace and x.indisunique
      order by t.relname, i.relname`,
  );
}

async function constraints(): Promise<ConstraintRow[]> {
  return database.handle.query<ConstraintRow>(
    `select t.relname as "tableName", k.conname as name, k.contype::text as kind,
            k.conkey::int[] as columns, r.relname as "refTable", k.confkey::int[] as "refColumns",
            ra.attnum as "refTenantColumn"
       from pg_constraint k
       join pg_class t on t.oid = k.conrelid
       left join pg_class r on r.oid = k.confrelid
       left join pg_attribute ra on ra.attrelid = r.oid and ra.attname = 'tenant_id' and not ra.attisdropped
      where t.relnamespace = 'public'::regnamespace and k.contype in ('f', 'x')
      order by t.relname, k.conname`,
  );
}

describe('the schema is ready to shard by tenant', () => {
  it('lists the global tables it names', async () => {
    const names = (await tables()).map((t) => t.name);
    const missing = GLOBAL_TABLES.filter((name) => !names.includes(name));
    expect(missing, 'global tables listed in this test but not in the schema').toEqual([]);
  });

  it('has every table either hold tenant data (tenant_id) or be listed as global', async () => {
    const problems: string[] = [];
    for (const table of await tables()) {
      const global = GLOBAL_TABLES.includes(table.name);
      if (global && table.tenantColumn !== null)
        problems.push(`global table ${table.name} has a tenant_id column`);
      if (!global && table.tenantColumn === null)
        problems.push(
          `table ${table.name} has no tenant_id and is not listed as global in test/db/tenant-keys.test.ts`,
        );
      if (!global && table.tenantColumn !== null && !table.tenantNotNull)
        problems.push(`table ${table.name} allows a null tenant_id`);
    }
    expect(problems).toEqual([]);
  });

  it('has tenant_id in the primary key and every unique index of every tenant table', async () => {
    const tenantTables = new Map(
      (await tables())
        .filter((t) => t.tenantColumn !== null && !GLOBAL_TABLES.includes(t.name))
        .map((t) => [t.name, t.tenantColumn!]),
    );
    const indexes = await uniqueIndexes();
    const problems: string[] = [];
    for (const [table] of tenantTables) {
      if (!indexes.some((i) => i.tableName === table && i.isPrimary))
        problems.push(`tenant table ${table} has no primary key`);
    }
    for (const index of indexes) {
      const tenantColumn = tenantTables.get(index.tableName);
      if (tenantColumn === undefined) continue;
      if (!index.keyColumns.includes(tenantColumn))
        problems.push(
          `${index.isPrimary ? 'primary key' : 'unique index'} ${index.indexName} of ${index.tableName} lacks tenant_id`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('has tenant_id in every foreign key and exclusion constraint between tenant tables', async () => {
    const all = await tables();
    const tenantTables = new Map(
      all
        .filter((t) => t.tenantColumn !== null && !GLOBAL_TABLES.includes(t.name))
        .map((t) => [t.name, t.tenantColumn!]),
    );
    const problems: string[] = [];
    for (const constraint of await constraints()) {
      const tenantColumn = tenantTables.get(constraint.tableName);
      if (constraint.kind === 'x') {
        if (tenantColumn !== undefined && !constraint.columns.includes(tenantColumn))
          problems.push(
            `exclusion constraint ${constraint.name} of ${constraint.tableName} lacks tenant_id`,
          );
        continue;
      }
      const refIsTenantData = constraint.refTable !== null && tenantTables.has(constraint.refTable);
      if (tenantColumn === undefined) {
        // A global table (a reference table) may only refer to other global tables.
        if (refIsTenantData)
          problems.push(
            `foreign key ${constraint.name} of global table ${constraint.tableName} refers to tenant table ${constraint.refTable}`,
          );
        continue;
      }
      if (!refIsTenantData) continue; // to a global table such as tenants: fine
      const position = constraint.columns.indexOf(tenantColumn);
      if (position < 0 || constraint.refColumns?.[position] !== constraint.refTenantColumn)
        problems.push(
          `foreign key ${constraint.name} of ${constraint.tableName} does not match tenant_id to tenant_id of ${constraint.refTable}`,
        );
    }
    expect(problems).toEqual([]);
  });
});
