// The SQL code files applied again on a deploy (src/db/schema/sql-code.ts): a trigger is made again only
// when its definition changed, so that a deploy which changes a function's body takes no lock
// that writes wait for.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { useCitusDdlSettings } from '../../src/db/citus/distribution.ts';
import { applySqlCode, bundledSqlCode, type SqlCodeFile } from '../../src/db/schema/sql-code.ts';
import { openTestDatabase } from '../support/test-database.ts';

const ITEM_SEARCH = 'modules/catalog/sql/020-item-search.sql';

let database: DatabaseHandle;
let url: string | undefined;
let citus: boolean;

beforeAll(async () => {
  ({ handle: database, url } = await openTestDatabase());
  const [row] = await database.query<{ citus: boolean }>(
    "select exists (select 1 from pg_extension where extname = 'citus') as citus",
  );
  citus = row!.citus;
});
afterAll(() => database.close());

/** The bundled files with `name`'s text changed by `change`. */
async function filesWith(name: string, change: (text: string) => string): Promise<SqlCodeFile[]> {
  const files = await bundledSqlCode();
  expect(files.map((file) => file.name)).toContain(name);
  return files.map((file) => (file.name === name ? { ...file, text: change(file.text) } : file));
}

/** Applies `files` in a transaction as a deploy does (all of them, or those that changed). */
function applyCode(files: readonly SqlCodeFile[], all = false, lockTimeout?: string) {
  return database.rawTransaction(async (sql) => {
    if (citus) await useCitusDdlSettings(sql);
    if (lockTimeout) await sql.exec(`set local lock_timeout = '${lockTimeout}'`);
    return applySqlCode(sql, files, all, citus);
  });
}

/** Each trigger of items with the id of the transaction that last wrote its definition. */
async function itemTriggerVersions(): Promise<Record<string, string>> {
  const rows = await database.query<{ name: string; xmin: string }>(
    `select tgname as name, xmin::text as xmin from pg_trigger
      where tgrelid = 'items'::regclass and not tgisinternal order by tgname`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.xmin]));
}

describe('applySqlCode', () => {
  it('leaves a trigger whose definition did not change as it is, when every file is applied again', async () => {
    const before = await itemTriggerVersions();
    expect(Object.keys(before)).toContain('items_search_rows_on_insert');
    expect(Object.keys(before)).toContain('items_events_inserted');
    const applied = await applyCode(await bundledSqlCode(), true);
    expect(applied.length).toBeGreaterThan(5);
    expect(await itemTriggerVersions()).toEqual(before);
  });

  it('makes a trigger again when its definition changed, and when it is missing', async () => {
    const before = await itemTriggerVersions();
    const files = await filesWith(ITEM_SEARCH, (text) =>
      text.replace(
        'create or replace trigger items_search_words_on_update after update on items\n  for each row',
        'create or replace trigger items_search_words_on_update after update of search_vector on items\n  for each row',
      ),
    );
    await database.rawTransaction(async (sql) => {
      if (citus) await useCitusDdlSettings(sql);
      await sql.exec('drop trigger items_search_rows_on_delete on items');
    });
    await applyCode(files);
    const after = await itemTriggerVersions();
    expect(after['items_search_words_on_update']).not.toBe(before['items_search_words_on_update']);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after['items_search_rows_on_insert']).toBe(before['items_search_rows_on_insert']);
    const [definition] = await database.query<{ text: string }>(
      `select pg_get_triggerdef(oid) as text from pg_trigger
        where tgrelid = 'items'::regclass and tgname = 'items_search_words_on_update'`,
    );
    expect(definition!.text).toContain('AFTER UPDATE OF search_vector ON');
    // The bundled text again: the trigger as it was.
    await applyCode(await bundledSqlCode());
  });

  // Two sessions: a write in flight in one, the deploy in the other (PostgreSQL and Citus).
  describe.skipIf(inject('testDatabase').engine === 'pglite')('beside a write in flight', () => {
    let writer: pg.Client;
    beforeAll(async () => {
      writer = new pg.Client({ connectionString: url });
      await writer.connect();
    });
    afterAll(() => writer.end());

    /** Applies `files` while another session holds an item insert uncommitted; answers the error. */
    async function applyBesideAWrite(files: SqlCodeFile[]): Promise<unknown> {
      const [tenant] = await database.query<{ id: number }>(
        `insert into tenants (name) values ('t-' || md5(random()::text)) returning id`,
      );
      await writer.query('begin');
      try {
        await writer.query(
          `insert into items (tenant_id, title, sku) values ($1, 'Storm lantern', 'LAN-1')`,
          [tenant!.id],
        );
        return await applyCode(files, false, '2s').then(
          () => undefined,
          (error: unknown) => error,
        );
      } finally {
        await writer.query('rollback');
      }
    }

    it('applies a changed function body without waiting for it', async () => {
      const files = await filesWith(ITEM_SEARCH, (text) =>
        text.replace(
          "where w ~ '^[[:alpha:]]{4}'\n     order by w",
          "where w ~ '^[[:alpha:]]{4}' and true\n     order by w",
        ),
      );
      expect(await applyBesideAWrite(files)).toBeUndefined();
      const [body] = await database.query<{ text: string }>(
        "select prosrc as text from pg_proc where proname = 'item_search_words_from_row'",
      );
      expect(body!.text).toContain('and true');
    });

    it('waits for it when a trigger of the written table changed (the lock the rule avoids)', async () => {
      const files = await filesWith(ITEM_SEARCH, (text) =>
        text.replace(
          'create or replace trigger items_search_words_on_update after update on items\n  for each row',
          'create or replace trigger items_search_words_on_update after update of search_vector on items\n  for each row',
        ),
      );
      const error = (await applyBesideAWrite(files)) as { code?: string } | undefined;
      expect(error?.code).toBe('55P03');
      await applyCode(await bundledSqlCode());
    });
  });
});
