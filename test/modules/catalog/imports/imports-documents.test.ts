// The import builds its chunk's item documents and facet arrays itself, set-based (migration 0160;
// docs/design.md, "Catalog import and export"), and the items' trigger keeps them. They must be
// exactly what the trigger, i.e. the API's write path, produces for the same item: compared here
// with the same item created through the API, with the trigger's own rebuild of each imported
// item, and through search and its navigation counts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import { CATALOG, createItem, type ItemJson, type Page } from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { JSONL, importResults, jsonl, runImport, useImportApi } from './imports-fixtures.ts';
import { navigationCounts, navigationOf, searchOk } from '../search/search-fixtures.ts';

const api = useImportApi();
let tenant: TestTenant;
let imported: ItemJson[];

interface StoredRow {
  id: number;
  document: string;
  facet_tag_ids: number[];
  facet_value_ids: number[];
  facet_price_type_ids: number[];
  facet_prices: number[];
}

// Non-ASCII text (escaped in documents), a rating with more decimals than the column keeps, an
// item without children, several prices, attributes and tags given out of id order, and a
// variant group (its default item is written again in its own chunk).
const records = [
  {
    SKU: 'DOC-1',
    RFID: 'rf-1',
    UUID: 'uu-1',
    Name: 'Lanterne',
    Title: 'Café lantern “Ω” 🏮',
    Model: 'L-1',
    ShortDescription: 'Short',
    LongDescription: 'Long\ndescription "quoted"',
    InStock: true,
    PublicWebLink: 'https://example.com/l1',
    Rating: 4.555,
    Category: 'Lights',
    Brand: 'Acme',
    GroupKey: 'lantern',
    Prices: [
      { PriceTypeSymbol: 'USD', NormalPrice: 12.5 },
      { PriceTypeSymbol: 'EUR', NormalPrice: 10.25, DiscountPrice: 7.125 },
    ],
    DynamicAttributes: [
      { TypeName: 'Size', Value: 'XL' },
      { TypeName: 'Color', Value: 'Rot' },
    ],
    Tags: [{ Name: 'Zeta' }, { Name: 'Alpha', Description: 'first tag' }],
  },
  {
    SKU: 'DOC-2',
    Title: 'Lantern variant',
    Category: 'Lights',
    GroupKey: 'lantern',
    Prices: [{ PriceTypeSymbol: 'EUR', NormalPrice: 9 }],
    DynamicAttributes: [{ TypeName: 'Color', Value: 'Blau' }],
    Tags: [{ Name: 'Alpha' }],
  },
  { SKU: 'DOC-3', Title: 'Bare lantern', ItemStatusId: 2 },
];

beforeAll(async () => {
  tenant = await api.createTenant(`impdoc-${Date.now() % 100000}`);
  const job = await runImport(
    api,
    tenant,
    jsonl(records),
    JSONL,
    'errorPolicy=RejectAll&createMissing=true',
  );
  expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 3 });
  const ids = (await importResults(api, tenant, job.Id)).map((r) => r.ItemId!);
  imported = [];
  for (const id of ids) {
    const response = await api.call({ url: `${CATALOG}/item/${id}`, tenant });
    expectStatus(response, 200);
    imported.push(response.json<ItemJson>());
  }
});

async function storedRows(ids: number[]): Promise<StoredRow[]> {
  return api.database.handle.query<StoredRow>(
    `select id, document, facet_tag_ids, facet_value_ids, facet_price_type_ids, facet_prices
       from items where tenant_id = (select id from tenants where name = $1) and id = any($2::int[])
      order by id`,
    [tenant.name, ids],
  );
}

/**
 * What differs between two items of the same content: their ids (and so DefaultItemId, checked
 * on its own), SKUs and write times.
 */
function withoutIdentity(document: string): unknown {
  const item = JSON.parse(document) as ItemJson & Record<string, unknown>;
  return {
    ...item,
    Id: 0,
    SKU: null,
    DefaultItemId: 0,
    DateAdded: '',
    DateModified: '',
    Prices: item.Prices.map((p) => ({ ...p, PriceId: 0, ItemId: 0 })),
  };
}

describe('imported item documents and facet arrays', () => {
  it('equal those of the same item created through the API', async () => {
    const [first] = imported;
    const created = await createItem(api, tenant, {
      SKU: 'API-1',
      RFID: 'rf-1',
      UUID: 'uu-1',
      Name: 'Lanterne',
      Title: records[0]!.Title,
      Model: 'L-1',
      ShortDescription: 'Short',
      LongDescription: records[0]!.LongDescription,
      InStock: true,
      PublicWebLink: 'https://example.com/l1',
      Rating: 4.555,
      CategoryId: first!.CategoryId,
      BrandId: first!.BrandId,
      Prices: first!.Prices.map((p) => ({
        PriceTypeId: p.PriceTypeId,
        NormalPrice: p.NormalPrice,
        DiscountPrice: p.DiscountPrice,
      })),
      DynamicAttributes: first!.DynamicAttributes.map((a) => ({
        TypeId: a.TypeId,
        Value: a.Value,
      })),
      Tags: first!.Tags.map((t) => ({ Id: t.Id })),
    });
    const [viaImport, viaApi] = await storedRows([first!.Id, created.Id]);
    expect(viaImport!.id).toBe(first!.Id);
    // The variant group made the imported item a default item (its DefaultItemId its own id).
    expect((JSON.parse(viaImport!.document) as ItemJson).DefaultItemId).toBe(first!.Id);
    expect(withoutIdentity(viaImport!.document)).toEqual(withoutIdentity(viaApi!.document));
    const { id: _a, document: _b, ...importFacets } = viaImport!;
    const { id: _c, document: _d, ...apiFacets } = viaApi!;
    expect(importFacets).toEqual(apiFacets);
    expect(importFacets.facet_tag_ids).toHaveLength(2);
    expect(importFacets.facet_prices).toEqual(
      first!.Prices.map((p) => p.DiscountPrice ?? p.NormalPrice),
    );
  });

  it('equal what the items’ trigger builds for each imported item, byte for byte', async () => {
    const ids = imported.map((i) => i.Id);
    const before = await storedRows(ids);
    expect(before[0]!.document).toMatch(/\\u00e9/); // "é" escaped as the trigger writes it
    expect((JSON.parse(before[0]!.document) as ItemJson).Rating).toBe(4.56); // the column's two decimals
    // An update without changes runs the trigger's own build (documents are rebuilt on update).
    await api.database.handle.query(
      `update items set version = version
        where tenant_id = (select id from tenants where name = $1) and id = any($2::int[])`,
      [tenant.name, ids],
    );
    expect(await storedRows(ids)).toEqual(before);
  });

  it('are found by search, with navigation counts over imported and API items', async () => {
    const found = await searchOk(api, tenant, {
      Query: 'lantern',
      Take: 100,
      IncludeStaticNavigation: true,
      IncludeDynamicNavigation: true,
    });
    // DOC-3 is passive (ItemStatusId 2): search leaves it out, as it does an API item.
    const active = await activeItems();
    expect(found.Items.map((i) => i.Id).sort((a, b) => a - b)).toEqual(
      active.map((i) => i.Id).sort((a, b) => a - b),
    );
    expect(found.Items.map((i) => i.SKU).sort()).toEqual(['API-1', 'DOC-1', 'DOC-2']);
    expect(navigationOf(found)).toEqual(navigationCounts(active));
    const tagCounts = found.StaticNavigation!.Tags.map((t) => [t.Name, t.Count]);
    expect(tagCounts).toEqual([
      ['Alpha', 3],
      ['Zeta', 2],
    ]);
  });
});

async function activeItems(): Promise<ItemJson[]> {
  const listed = await api.call({ url: `${CATALOG}/items?take=1000`, tenant });
  expectStatus(listed, 200);
  return listed.json<Page<ItemJson>>().Results.filter((i) => i.ItemStatusId !== 2);
}
