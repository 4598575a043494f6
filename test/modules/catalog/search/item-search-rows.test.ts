// The search reads item_search_rows (a narrow copy of each item) and item_search_counts (items per
// status and master flag), both kept by triggers on `items` (migration 0140). After every kind
// of write (create, PUT, PATCH, status and variant changes, prices, attributes, tag mappings,
// delete, a bulk import) each narrow row must equal its item as stored, no item may lack one, no
// row may outlive its item, and the counts must equal a count of the items; and the searches
// that answer from them (the total of an unfiltered page, a page by Title) must agree with a
// brute-force answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTenant, type TestTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { JSONL, jsonl, runImport, useImportApi } from '../imports/imports-fixtures.ts';
import { searchOk } from './search-fixtures.ts';

const api = useImportApi();
const acme = useTenant(api, 'rows');
const other = useTenant(api, 'rows-other');
let tenantId: number;

beforeAll(async () => {
  const [row] = await api.database.handle.query<{ id: number }>(
    'select id from tenants where name = $1',
    [acme.name],
  );
  tenantId = row!.id;
});

/** Differences between the narrow rows and the items they copy (all zero when current). */
async function drift(tenant: number) {
  const [row] = await api.database.handle.query<{
    missing: number;
    stale: number;
    orphans: number;
    counts: number;
  }>(
    `select
       (select count(*)::int from items i
         where i.tenant_id = $1
           and not exists (select 1 from item_search_rows s where s.tenant_id = i.tenant_id and s.item_id = i.id)) as missing,
       (select count(*)::int from items i join item_search_rows s on s.tenant_id = i.tenant_id and s.item_id = i.id
         where i.tenant_id = $1
           and (s.item_status_id, s.default_item_id, s.category_id, s.brand_id, s.title_key, s.date_added, s.rating,
                s.facet_tag_ids, s.facet_value_ids, s.facet_price_type_ids, s.facet_prices, s.search_vector, s.title_vector)
               is distinct from
               (i.item_status_id, i.default_item_id, i.category_id, i.brand_id, lower(i.title), i.date_added, i.rating,
                i.facet_tag_ids, i.facet_value_ids, i.facet_price_type_ids, i.facet_prices,
                item_search_scoped(i.tenant_id, i.search_vector || item_search_sample_marks(i.id)),
                item_search_scoped(i.tenant_id,
                  setweight(to_tsvector('simple', search_fold(coalesce(i.title, '') || ' ' || coalesce(i.name, ''))), 'A')))) as stale,
       (select count(*)::int from item_search_rows s
         where s.tenant_id = $1
           and not exists (select 1 from items i where i.tenant_id = s.tenant_id and i.id = s.item_id)) as orphans,
       (select count(*)::int from (
          (select item_status_id, master, items from item_search_counts where tenant_id = $1 and items <> 0
           except all
           select item_status_id, default_item_id is null or default_item_id = id, count(*) from items
            where tenant_id = $1 group by 1, 2)
          union all
          (select item_status_id, default_item_id is null or default_item_id = id, count(*) from items
            where tenant_id = $1 group by 1, 2
           except all
           select item_status_id, master, items from item_search_counts where tenant_id = $1 and items <> 0)) d) as counts`,
    [tenant],
  );
  return row!;
}

async function expectCurrent() {
  expect(await drift(tenantId)).toEqual({ missing: 0, stale: 0, orphans: 0, counts: 0 });
}

async function listAll(tenant: TestTenant): Promise<ItemJson[]> {
  const response = await api.call({ url: `${CATALOG}/items?take=1000`, tenant });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>().Results;
}

/** The totals and a page by Title that the counts and the title index answer, against a brute force. */
async function expectAnswersRight() {
  const all = await listAll(acme);
  const active = all.filter((i) => i.ItemStatusId !== 2);
  const masters = active.filter((i) => i.DefaultItemId == null || i.DefaultItemId === i.Id);
  const byTitle = [...active].sort((a, b) => {
    const x = a.Title.toLowerCase();
    const y = b.Title.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a.Id - b.Id;
  });
  const page = await searchOk(api, acme, { OrderedPropertyName: 'Title', Skip: 1, Take: 3 });
  expect(page.TotalItemCount).toBe(active.length);
  // Title order compares lower-case ASCII titles here, where JS and the database agree.
  expect(page.Items.map((i) => i.Id)).toEqual(byTitle.slice(1, 4).map((i) => i.Id));
  expect((await searchOk(api, acme, { IncludePassiveItems: true, Take: 1 })).TotalItemCount).toBe(
    all.length,
  );
  expect(
    (await searchOk(api, acme, { IncludeOnlyMasterItems: true, Take: 1 })).TotalItemCount,
  ).toBe(masters.length);
}

const call = async (method: string, url: string, body?: unknown) => {
  const response = await api.call({ method, url: `${CATALOG}${url}`, tenant: acme, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
};

describe('item_search_rows and item_search_counts follow every write', () => {
  let items: ItemJson[];
  let price: number;
  let tag: number;
  let color: number;

  it('after items are created (with prices, attributes and tags)', async () => {
    price = (await createPriceType(api, acme, { PriceTypeSymbol: '$' })).Id;
    tag = (await createTag(api, acme)).Id;
    color = (await createAttributeType(api, acme, 'Color')).Id;
    items = [];
    for (const [k, title] of ['delta lamp', 'alpha lamp', 'charlie desk', 'bravo chair'].entries())
      items.push(
        await createItem(api, acme, {
          Title: title,
          Tags: k % 2 ? [{ Id: tag }] : [],
          Prices: [{ PriceTypeId: price, NormalPrice: 10 + k }],
          DynamicAttributes: [{ TypeId: color, Value: k % 2 ? 'Red' : 'Blue' }],
        }),
      );
    await createItem(api, other, { Title: 'other tenant lamp' });
    await expectCurrent();
    await expectAnswersRight();
  });

  it('after a PUT and a PATCH (title, category, brand, rating, status)', async () => {
    const category = (await createCategory(api, acme)).Id;
    const brand = (await createBrand(api, acme)).Id;
    const current = items[0]!;
    await call('PUT', `/item/${current.Id}`, {
      ...current,
      Title: 'echo lamp',
      CategoryId: category,
      BrandId: brand,
      Rating: 4.5,
    });
    await expectCurrent();
    await call('PATCH', `/item/${items[1]!.Id}`, { ItemStatusId: 2 });
    await expectCurrent();
    await expectAnswersRight();
    await call('PATCH', `/item/${items[1]!.Id}`, { ItemStatusId: 1, Title: 'zulu lamp' });
    await expectCurrent();
    await expectAnswersRight();
  });

  it('after a variant is added and its default item changes', async () => {
    const variant = await createItem(api, acme, {
      Title: 'alpha lamp small',
      DefaultItemId: items[2]!.Id,
    });
    await expectCurrent();
    await expectAnswersRight();
    await call('PATCH', `/item/${variant.Id}`, { DefaultItemId: null });
    await expectCurrent();
    await expectAnswersRight();
    items.push(variant);
  });

  it('after prices, attributes and tag mappings change', async () => {
    await call('PUT', `/items/${items[2]!.Id}/prices`, [
      { PriceTypeId: price, NormalPrice: 99, DiscountPrice: 5 },
    ]);
    await expectCurrent();
    await call('PUT', `/items/${items[2]!.Id}/dynamicattributes`, [
      { TypeId: color, Value: 'Green' },
    ]);
    await expectCurrent();
    await call('POST', '/itemtagmapping', { ItemId: items[2]!.Id, TagId: tag });
    await expectCurrent();
    await call('DELETE', `/itemtagmapping?itemId=${items[1]!.Id}&tagId=${tag}`);
    await expectCurrent();
    const tagged = await searchOk(api, acme, { TagId: tag, Take: 10 });
    expect(tagged.Items.map((i) => i.Id).sort((a, b) => a - b)).toEqual(
      [items[2]!.Id, items[3]!.Id].sort((a, b) => a - b),
    );
    const cheap = await searchOk(api, acme, { PriceTypeId: price, MaxPrice: 6, Take: 10 });
    expect(cheap.Items.map((i) => i.Id)).toEqual([items[2]!.Id]);
  });

  it('after an item is deleted', async () => {
    await call('DELETE', `/item/${items[3]!.Id}`);
    await expectCurrent();
    await expectAnswersRight();
  });

  it('after a bulk import (new items in chunks, variants grouped)', async () => {
    const records = Array.from({ length: 30 }, (_, n) => ({
      SKU: `ROW-${n}`,
      Title: `imported ${String.fromCharCode(97 + (n % 26))} lamp ${n}`,
      ItemStatusId: n % 7 === 0 ? 2 : 1,
      Prices: [{ PriceTypeSymbol: '$', NormalPrice: 20 + n }],
      Tags: [{ Name: 'Imported' }],
      ...(n % 10 < 2 ? { GroupKey: `group-${Math.floor(n / 10)}` } : {}),
    }));
    const job = await runImport(api, acme, jsonl(records), JSONL, 'createMissing=true');
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 30 });
    await expectCurrent();
    await expectAnswersRight();
    const found = await searchOk(api, acme, { Query: 'imported', Take: 1 });
    expect(found.TotalItemCount).toBe(records.filter((r) => r.ItemStatusId === 1).length);
  });

  it('and the other tenant’s rows are its own', async () => {
    const [row] = await api.database.handle.query<{ id: number }>(
      'select id from tenants where name = $1',
      [other.name],
    );
    expect(await drift(row!.id)).toEqual({ missing: 0, stale: 0, orphans: 0, counts: 0 });
    expect((await searchOk(api, other, { Take: 10 })).TotalItemCount).toBe(1);
  });
});

// Migration 0262: every lexeme of a narrow row names its tenant, and so does every query.
describe('tenant-scoped words', () => {
  const query = async <T>(sql: string, params: unknown[] = []) =>
    (await api.database.handle.query<T & Record<string, unknown>>(sql, params))[0]!;

  it('prefix every lexeme with the tenant, keeping its positions and weights', async () => {
    // Quotes, backslashes, colons and digits in words: the text form quotes and escapes them.
    const text = `O'Brien's "lamp" C:\\Lamps\\old 2.5kg it''s a:b:c ~s1 ${'word '.repeat(3)}`;
    const row = await query<{ same: boolean; scoped: string; plain: string }>(
      `with v as (select setweight(to_tsvector('simple', search_fold($1)), 'B') as v)
       select (select array_agg((lexeme, positions, weights) order by lexeme)
                 from unnest(item_search_scoped(7, v))) =
              (select array_agg(('7 ' || lexeme, positions, weights) order by '7 ' || lexeme)
                 from unnest(v)) as same,
              item_search_scoped(7, v)::text as scoped, v::text as plain
         from v`,
      [text],
    );
    expect(row.plain).toContain("'");
    expect(row.same).toBe(true);
    const empty = await query<{ v: string }>(
      `select item_search_scoped(7, ''::tsvector)::text as v`,
    );
    expect(empty.v).toBe('');
  });

  it('scope every lexeme of a query, whatever its operators', async () => {
    const cases: [string, string][] = [
      [`'lamp'`, `'7 lamp'`],
      [`'lamp':* & !'red'`, `'7 lamp':* & !'7 red'`],
      [`'lamp' <-> 'shade' | 'o''brien':AB`, `'7 lamp' <-> '7 shade' | '7 o''brien':AB`],
      [`('a\\\\b' | 'x:y') & '~s6'`, `( '7 a\\\\b' | '7 x:y' ) & '7 ~s6'`],
    ];
    for (const [plain, scoped] of cases) {
      const row = await query<{ q: string; expected: string }>(
        `select item_search_scoped_query(7, $1::tsquery)::text as q, $2::tsquery::text as expected`,
        [plain, scoped],
      );
      expect(row.q).toBe(row.expected);
    }
    const mark = await query<{ q: string }>(`select item_search_mark(7, 6)::text as q`);
    expect(mark.q).toBe(`'7 ~s6'`);
  });

  it('find only the tenant’s own rows, even without a tenant condition', async () => {
    const title = 'Quixotic Zephyr lantern';
    const mine = await createItem(api, acme, { Title: title });
    const theirs = await createItem(api, other, { Title: title });
    const [otherRow] = await api.database.handle.query<{ id: number }>(
      'select id from tenants where name = $1',
      [other.name],
    );
    for (const [tenant, item, foreign] of [
      [tenantId, mine.Id, theirs.Id],
      [otherRow!.id, theirs.Id, mine.Id],
    ] as const) {
      // The text query first, as the search builds it (on Citus a function that reads tables
      // cannot run inside a shard's query); then every tenant's rows, with no tenant condition.
      const [scoped] = await api.database.handle.query<{ q: string }>(
        `select item_search_query($1, array['quixotic', 'zephyr'], true, false, false, '')::text as q`,
        [tenant],
      );
      const rows = await api.database.handle.query<{ item_id: number }>(
        'select item_id from item_search_rows where search_vector @@ $1::tsquery',
        [scoped!.q],
      );
      expect(rows.map((r) => r.item_id)).toEqual([item]);
      expect(rows.map((r) => r.item_id)).not.toContain(foreign);
    }
    const found = await searchOk(api, acme, { Query: 'quixotic zephyr', Take: 10 });
    expect(found.Items.map((i) => i.Id)).toEqual([mine.Id]);
  });
});
