// A database migrated before each module took its own migrations folder recorded the old
// versions (0001_tenants_and_oauth, 0100_events …), and their statements already ran. The runner
// must take it as it is: apply nothing that this change only split or renamed
// (src/db/schema/replaced-migrations.ts), leave every row as it was, and end with exactly the schema
// of a database migrated fresh. fixtures/migrations-before-module-folders holds the migrations
// as they were checked in just before the change.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { bundledMigrations, loadMigrations, migrate } from '../../src/db/schema/migrate.ts';
import { REPLACED_MIGRATIONS } from '../../src/db/schema/replaced-migrations.ts';
import { schemaSnapshot } from '../../src/db/schema/schema-snapshot.ts';
import {
  openEmptyDatabase,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';

// Migrating a database from nothing distributes every table on Citus, one by one: minutes there.
const MIGRATING_TIMEOUT = 300_000;

const LEGACY_DIR = path.join(import.meta.dirname, 'fixtures/migrations-before-module-folders');

let legacy: DatabaseHandle;
let partial: DatabaseHandle;
let beforeSqlCode: DatabaseHandle;
let fresh: TestDatabase;

// One at a time: on Citus each empty database is made on every node and the workers added to it,
// and four at once on a loaded two-core host is where a CI run once saw a worker not answer.
beforeAll(async () => {
  legacy = await openEmptyDatabase();
  partial = await openEmptyDatabase();
  beforeSqlCode = await openEmptyDatabase();
  fresh = await openTestDatabase();
});
// Optional: a database that failed to open leaves its handle unset, and the failure to report is
// that one, not a TypeError here.
afterAll(() =>
  Promise.all([legacy?.close(), partial?.close(), beforeSqlCode?.close(), fresh?.handle.close()]),
);

/**
 * Every row of every table (schema_migrations aside), each table's rows in a fixed order. With
 * `like`, only its tables, and of each only the columns it had: what migrations added since (a new
 * table, a new column with its default) is not a change to the rows that were there.
 */
/**
 * Derived copies that a migration rewrites on purpose, compared without what it added: the
 * narrow search rows' vectors gain the sample marks '~s1'…'~s10' (migration 0260) and their
 * lexemes the tenant ('7 lamp', migration 0262).
 */
const unscoped = (column: string) =>
  `substr(replace(' ' || t.${column}::text, ' ''' || t.tenant_id || ' ', ' '''), 2)::tsvector`;
const DERIVED: Record<string, string> = {
  item_search_rows: ` || jsonb_build_object(
    'search_vector', ts_delete(${unscoped('search_vector')}, array(select '~s' || k from generate_series(1, 10) k))::text,
    'title_vector', ${unscoped('title_vector')}::text)`,
};

/**
 * Columns that a migration renamed (new name: old name), compared under their old name: the
 * webhooks' feed cursors became positions (migration 0282), their values kept.
 */
const RENAMED: Record<string, Record<string, string>> = {
  webhook_subscriptions: { cursor_position: 'cursor_tx' },
  webhook_deliveries: { event_position: 'event_tx' },
};

async function rowsOfEveryTable(
  database: DatabaseHandle,
  like?: Record<string, { columns: string[] }>,
): Promise<Record<string, { columns: string[]; rows: string[] }>> {
  const tables = await database.query<{ name: string }>(
    `select relname as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind = 'r' and relname <> 'schema_migrations'
      order by relname`,
  );
  const dump: Record<string, { columns: string[]; rows: string[] }> = {};
  for (const { name } of tables) {
    if (like && !like[name]) continue;
    const all = (
      await database.query<{ column: string }>(
        `select attname as column from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attname`,
        [name],
      )
    ).map((c) => c.column);
    const columns = like ? like[name]!.columns : all;
    const added = all.filter((c) => !columns.includes(c));
    const renamed = Object.entries(like ? (RENAMED[name] ?? {}) : {})
      .filter(([now]) => all.includes(now))
      .map(([now, old]) => ` || jsonb_build_object('${old}', t.${now})`)
      .join('');
    const rows = await database.query<{ row: string }>(
      `select (to_jsonb(t) - $1::text[]${DERIVED[name] ?? ''}${renamed})::text as row from ${name} t order by 1`,
      [added],
    );
    dump[name] = { columns, rows: rows.map((r) => r.row) };
  }
  return dump;
}

/** Representative rows of every module, written as the server before the change wrote them. */
async function insertRepresentativeData(database: DatabaseHandle): Promise<void> {
  await database.exec(`
    insert into tenants (name) values ('acme'), ('globex');
    insert into oauth_apps (tenant_id, id, name, application_type_id, secret_hash)
    values (1, '00000000-0000-4000-8000-000000000001', 'Kiosk', 3, 'hash');
    insert into signing_keys (kid, algorithm, private_jwk, public_jwk)
    values ('k1', 'ES256', '{"d":"x"}', '{"x":"y"}');
    insert into members (tenant_id, id, username, name, password_hash, roles)
    values (1, '00000000-0000-4000-8000-0000000000a1', 'alice', 'Alice', 'hash', '{owner}'),
           (1, '00000000-0000-4000-8000-0000000000a2', 'bob', 'Bob', 'hash', '{editor}');
    insert into refresh_tokens (tenant_id, token_hash, family_id, client_id, member_id, access_jti,
                                access_expires_at, expires_at)
    values (1, 'rt', '00000000-0000-4000-8000-0000000000f1', 'console',
            '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000f2',
            '2030-01-01', '2030-01-02');
    insert into brands (tenant_id, name) values (1, 'Brand');
    insert into categories (tenant_id, name) values (1, 'Tea');
    insert into category_metadata (tenant_id, category_id, key, value) values (1, 1, 'color', 'green');
    insert into tags (tenant_id, name) values (1, 'organic');
    insert into price_types (tenant_id, description, symbol) values (1, 'Euro', 'EUR');
    insert into dynamic_attribute_types (tenant_id, description) values (1, 'Origin');
    insert into dynamic_attribute_values (tenant_id, type_id, value) values (1, 1, 'Japan');
    insert into items (tenant_id, title, sku, brand_id, category_id)
    values (1, 'Sencha', 'SKU-1', 1, 1), (1, 'Matcha', 'SKU-2', null, 1);
    insert into item_prices (tenant_id, item_id, price_type_id, normal_price, discount_price)
    values (1, 1, 1, 12.5, 9.99);
    insert into item_attributes (tenant_id, item_id, type_id, value_id) values (1, 1, 1, 1);
    insert into item_tags (tenant_id, item_id, tag_id) values (1, 1, 1);
    insert into storage_blobs (sha256, size) values (repeat('a', 64), 3);
    insert into assets (tenant_id, file_name, mime_type, family, size, sha256, url_key)
    values (1, 'sencha.png', 'image/png', 'image', 3, repeat('a', 64), 'key-1');
    insert into item_assets (tenant_id, item_id, asset_id, kind, is_default) values (1, 1, 1, 'image', true);
    insert into brand_assets (tenant_id, brand_id, asset_id, kind) values (1, 1, 1, 'image');
    insert into category_assets (tenant_id, category_id, asset_id, kind) values (1, 1, 1, 'image');
    insert into stores (tenant_id, name, longitude, latitude) values (1, 'Main street', 13.4, 52.5);
    insert into integration_endpoints (tenant_id, service_name, service_tier, admin_mail, status)
    values (1, 'acme-shop', 1, 'ops@example.com', 2);
    insert into integration_service_names (name_key, owner_tenant_id) values ('acme-shop', 1);
    insert into notification_outbox (tenant_id, recipient, subject, body)
    values (1, 'ops@example.com', 'Ready', 'Your endpoint is ready');
    insert into webhook_subscriptions (tenant_id, url, event_types, secret, cursor_tx)
    values (1, 'https://hooks.example.com/omni', '{item.created}', 'whsec', 0);
    insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, record)
    values (1, 9, '2024-02-03T04:05:06Z', 1, 1, '{"ItemId":1,"ItemTitle":"Sencha"}'),
           (2, 10, '2024-03-01T00:00:00Z', null, null, '{"RelatedItemId":1}');
    insert into job_runs (queue, job_key, crashes) values ('catalog-import', '1:import:1', 1);
  `);
}

describe('migrate() on a database migrated before module migration folders', () => {
  it(
    'applies nothing it already ran, keeps every row, and ends with the fresh schema',
    async () => {
      const before = await loadMigrations(LEGACY_DIR);
      await migrate(legacy, before);
      await insertRepresentativeData(legacy);
      const rowsBefore = await rowsOfEveryTable(legacy);
      expect(rowsBefore['items']!.rows).toHaveLength(2);
      expect(rowsBefore['events']!.rows.length).toBeGreaterThan(0);

      // Only migrations added after the move to module folders: neither an old version nor the
      // replacement of one.
      const replacements = new Set(Object.values(REPLACED_MIGRATIONS).flat());
      const legacyVersions = new Set(before.map((m) => m.version));
      const addedSince = (await bundledMigrations())
        .map((m) => m.version)
        .filter((version) => !legacyVersions.has(version) && !replacements.has(version));
      expect(await migrate(legacy, await bundledMigrations())).toEqual(addedSince);
      expect(await migrate(legacy, await bundledMigrations())).toEqual([]);

      expect(await schemaSnapshot(legacy)).toEqual(await schemaSnapshot(fresh.handle));
      expect(await rowsOfEveryTable(legacy, rowsBefore)).toEqual(rowsBefore);

      // The old versions stay recorded beside the versions that replaced them.
      const recorded = (
        await legacy.query<{ version: string }>('select version from schema_migrations')
      ).map((r) => r.version);
      const expected = [
        ...before.map((m) => m.version),
        ...Object.values(REPLACED_MIGRATIONS).flat(),
        ...(await bundledMigrations()).map((m) => m.version),
      ];
      expect(recorded.sort()).toEqual([...new Set(expected)].sort());
    },
    MIGRATING_TIMEOUT,
  );
});

describe('migrate() on a database migrated part of the way before module migration folders', () => {
  it(
    'applies the rest in the new order and ends with the fresh schema',
    async () => {
      // Up to 0012: 0001, 0003, 0007, 0009, 0010 and 0012 were split or renamed since, 0030 and
      // 0100 (also split) not applied yet.
      const before = (await loadMigrations(LEGACY_DIR)).filter((m) => m.version < '0020');
      await migrate(partial, before);
      const applied = await migrate(partial, await bundledMigrations());
      expect(applied).toContain('0030_assets_and_blobs');
      expect(applied).toContain('0031_asset_relations');
      expect(applied).toContain('0101_catalog_events');
      expect(applied).not.toContain('0013_oauth_apps_and_keys');
      expect(applied).not.toContain('0019_notification_outbox_tenant_keys');
      expect(applied.every((version) => version >= '0020')).toBe(true);
      expect(await schemaSnapshot(partial)).toEqual(await schemaSnapshot(fresh.handle));
    },
    MIGRATING_TIMEOUT,
  );
});

/** The first migration of the change that took functions and triggers out of migrations. */
const FIRST_WITH_SQL_CODE = '0280_sequence_defaults';

describe('migrate() on a database built before SQL code files (functions and triggers as code)', () => {
  it(
    "replaces the migrations' functions with the code files', keeps every row, and ends with the fresh schema",
    async () => {
      // What the released server left: its migrations ran, the functions and triggers are the
      // copies those migrations made, and no code file was ever applied.
      const released = (await bundledMigrations()).filter((m) => m.version < FIRST_WITH_SQL_CODE);
      await migrate(beforeSqlCode, released);
      const [{ codeFiles }] = (await beforeSqlCode.query<{ codeFiles: string | null }>(
        `select to_regclass('sql_code_files')::text as "codeFiles"`,
      )) as [{ codeFiles: string | null }];
      expect(codeFiles).toBeNull();
      await insertRepresentativeData(beforeSqlCode);
      const rowsBefore = await rowsOfEveryTable(beforeSqlCode);

      await migrate(beforeSqlCode, await bundledMigrations());
      expect(await schemaSnapshot(beforeSqlCode)).toEqual(await schemaSnapshot(fresh.handle));
      expect(await rowsOfEveryTable(beforeSqlCode, rowsBefore)).toEqual(rowsBefore);
      // Every code file is recorded as applied: the next start touches nothing.
      const applied = await beforeSqlCode.query<{ name: string }>(
        'select name from sql_code_files order by name',
      );
      expect(applied.length).toBeGreaterThan(5);
      expect(await migrate(beforeSqlCode, await bundledMigrations())).toEqual([]);
    },
    MIGRATING_TIMEOUT,
  );
});

describe('src/db/schema/replaced-migrations.ts', () => {
  it('replaces old versions by checked-in versions of other names', async () => {
    const current = new Set((await bundledMigrations()).map((m) => m.version));
    const legacyVersions = new Set((await loadMigrations(LEGACY_DIR)).map((m) => m.version));
    for (const [old, replacements] of Object.entries(REPLACED_MIGRATIONS)) {
      expect(legacyVersions.has(old), `${old} is a migration of before the change`).toBe(true);
      // A fresh database records the new versions only, so it never marks pieces it did not run.
      expect(current.has(old), `${old} is no longer checked in`).toBe(false);
      for (const version of replacements)
        expect(current.has(version), `${version} is checked in`).toBe(true);
    }
    // Every old version is either still checked in under its name or replaced.
    for (const old of legacyVersions)
      expect(current.has(old) || old in REPLACED_MIGRATIONS, old).toBe(true);
  });
});
