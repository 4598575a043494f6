// POST /private/catalog/imports with the records that are not items (Category, Brand, Tag,
// PriceType, AttributeType), items naming a category by path and assets by id or content, and
// CSV's empty texts: what is created, what is added to what exists, what is never changed, and
// how each mistake fails its record.
import { describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import { expectStatus } from '../../../support/expectations.ts';
import {
  CATALOG,
  createCategory,
  createItem,
  createTag,
  type CategoryJson,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { createAsset, pdf, png, sha256Of } from '../../storage/storage-fixtures.ts';
import {
  CSV,
  JSONL,
  importResults,
  jsonl,
  runImport,
  useImportApi,
  waitForJob,
} from './imports-fixtures.ts';

/** What every row naming something the catalog lacks is told to do. */
const ADVICE =
  'Create it in the catalog first, or import again with the option to create what the catalog lacks (createMissing).';

const api = useImportApi();
let counter = 0;
const newTenant = () => api.createTenant(`rec-${++counter}-${Date.now() % 100000}`);

async function get<T>(tenant: TestTenant, url: string): Promise<T> {
  const response = await api.call({ url: `${CATALOG}${url}`, tenant });
  expectStatus(response, 200);
  return response.json<T>();
}

const categories = async (tenant: TestTenant) =>
  Promise.all(
    (await get<{ Categories: { Id: number }[] }>(tenant, '/categories')).Categories.flatMap(
      function ids(node: unknown): number[] {
        const n = node as { Id: number; CategoryTreeItems: unknown[] };
        return [n.Id, ...n.CategoryTreeItems.flatMap(ids)];
      },
    ).map((id) => get<CategoryJson>(tenant, `/category/${id}`)),
  );

const relations = (tenant: TestTenant, path: string) =>
  get<{ AssetId: number; IsDefault: boolean }[]>(tenant, path);

describe('POST /private/catalog/imports (record types)', () => {
  it('creates the tree by path, siblings matched by name under their parent', async () => {
    const tenant = await newTenant();
    const elsewhere = await createCategory(api, tenant, { Name: 'Shirts' }); // a root of that name
    const job = await runImport(
      api,
      tenant,
      jsonl([
        {
          RecordType: 'Category',
          CategoryPath: ['Clothing', 'Men', 'Shirts'],
          ShortDescription: '',
          CategoryMetadata: [{ Key: 'k', Value: 'v' }],
        },
        { RecordType: 'Category', CategoryPath: ['clothing'], LongDescription: 'All' },
        { Title: 'A', CategoryPath: ['CLOTHING', 'men', 'shirts'] },
        { Title: 'B', CategoryPath: ['Clothing', 'Women', 'Shirts'] },
        { Title: 'C', Category: 'Men' },
        { Title: 'Both', Category: 'Men', CategoryPath: ['Clothing'] },
      ]),
      JSONL,
      'createMissing=true&errorPolicy=SkipFailedRows',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 5, RowsFailed: 1 });
    const results = await importResults(api, tenant, job.Id);
    expect(results[5]!.Errors).toEqual([
      {
        Field: 'CategoryPath',
        Message:
          'Category and CategoryPath name the same thing. Give only one of CategoryId, Category, CategoryPath.',
      },
    ]);
    const all = await categories(tenant);
    const byPath = new Map<string, CategoryJson>();
    const path = (c: CategoryJson): string =>
      c.ParentCategoryId === null
        ? c.Name
        : `${path(all.find((p) => p.Id === c.ParentCategoryId)!)}/${c.Name}`;
    for (const c of all) byPath.set(path(c), c);
    expect([...byPath.keys()].sort()).toEqual([
      'Clothing',
      'Clothing/Men',
      'Clothing/Men/Shirts',
      'Clothing/Women',
      'Clothing/Women/Shirts',
      'Shirts',
    ]);
    expect(byPath.get('Shirts')!.Id).toBe(elsewhere.Id);
    expect(byPath.get('Clothing/Men/Shirts')).toMatchObject({
      Id: results[0]!.CategoryId,
      ShortDescription: '',
      LongDescription: null,
      CategoryMetadata: [{ Key: 'k', Value: 'v' }],
    });
    expect(byPath.get('Clothing')).toMatchObject({
      Id: results[1]!.CategoryId,
      LongDescription: 'All',
    });
    const items = (await get<Page<ItemJson>>(tenant, '/items?take=10')).Results;
    expect(items.map((i) => [i.Title, i.CategoryId])).toEqual([
      ['A', byPath.get('Clothing/Men/Shirts')!.Id],
      ['B', byPath.get('Clothing/Women/Shirts')!.Id],
      ['C', byPath.get('Clothing/Men')!.Id],
    ]);
  });

  it('fails a path through two siblings of one name, and names a missing one without createMissing', async () => {
    const tenant = await newTenant();
    const root = await createCategory(api, tenant, { Name: 'Root' });
    await createCategory(api, tenant, { Name: 'Twin', ParentCategoryId: root.Id });
    // Siblings of one name are refused since DuplicateCategoryName; a database from before the
    // rule may hold them still.
    await api.database.handle.query(
      `insert into categories (tenant_id, name, parent_id)
       select id, 'twin', $2 from tenants where name = $1`,
      [tenant.name, root.Id],
    );
    const job = await runImport(
      api,
      tenant,
      jsonl([
        { Title: 'A', CategoryPath: ['Root', 'Twin', 'Leaf'] },
        { Title: 'B', CategoryPath: ['Root', 'Other'] },
        { Title: 'C', CategoryPath: ['Root'] },
      ]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect(job).toMatchObject({ RowsWritten: 1, RowsFailed: 2 });
    const results = await importResults(api, tenant, job.Id);
    expect(results.map((r) => r.Errors)).toEqual([
      [
        {
          Field: 'CategoryPath',
          Message:
            'The catalog has 2 categories at "Root / Twin" (one parent, one name). Give the CategoryId of the one you mean instead.',
        },
      ],
      [{ Field: 'CategoryPath', Message: `The catalog has no category "Root / Other". ${ADVICE}` }],
      undefined,
    ]);
  });

  it('without createMissing, the other records only check that their resource exists', async () => {
    const tenant = await newTenant();
    const tag = await createTag(api, tenant, { Name: 'Known' });
    const job = await runImport(
      api,
      tenant,
      jsonl([
        { RecordType: 'Tag', Tag: 'Known', Description: 'not added' },
        { RecordType: 'Tag', Tag: 'Unknown' },
        { RecordType: 'Brand', Brand: 'Nobody' },
        { RecordType: 'PriceType', PriceTypeSymbol: 'EUR', Description: 'Euro' },
        { RecordType: 'AttributeType', TypeName: 'Color' },
        { RecordType: 'Category', CategoryPath: ['Nowhere'] },
        { RecordType: 'Colour', Tag: 'x' },
        { RecordType: 'Tag', Tag: 'Known', Title: 'an item field' },
      ]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 1, RowsFailed: 7 });
    const results = await importResults(api, tenant, job.Id);
    expect(results[0]).toEqual({ Line: 1, Status: 'Written', TagId: tag.Id });
    expect(results.slice(1).map((r) => r.Errors![0])).toEqual([
      { Field: 'Tag', Message: `The catalog has no tag named "Unknown". ${ADVICE}` },
      { Field: 'Brand', Message: `The catalog has no brand named "Nobody". ${ADVICE}` },
      {
        Field: 'PriceTypeSymbol',
        Message: `The catalog has no price type with the symbol "EUR". ${ADVICE}`,
      },
      { Field: 'TypeName', Message: `The catalog has no attribute type named "Color". ${ADVICE}` },
      { Field: 'CategoryPath', Message: `The catalog has no category "Nowhere". ${ADVICE}` },
      {
        Field: 'RecordType',
        Message: 'must be one of Item, Category, Brand, Tag, PriceType, AttributeType',
      },
      {
        Field: 'Title',
        Message:
          'Title is not a field the import knows. Remove it, or check its spelling (fields are written like Title, SKU, Brand, CategoryPath).',
      },
    ]);
    expect((await get<{ Description: string | null }>(tenant, `/tag/${tag.Id}`)).Description).toBe(
      null,
    );
  });

  it('with createMissing, adds what a resource lacks and changes nothing it has', async () => {
    const tenant = await newTenant();
    const [first, second, third] = [
      await createAsset(api, tenant, png(2, 2), 'image/png', 'a.png'),
      await createAsset(api, tenant, png(3, 3), 'image/png', 'b.png'),
      await createAsset(api, tenant, pdf('c'), 'application/pdf', 'c.pdf'),
    ];
    const category = await createCategory(api, tenant, { Name: 'Shoes', LongDescription: 'kept' });
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/categorymetadata`,
        tenant,
        body: { CategoryId: category.Id, Key: 'size', Value: 'kept' },
      }),
      201,
    );
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/categories/${category.Id}/image?assetId=${first.Id}&isDefault=true`,
        tenant,
      }),
      201,
    );
    const tag = await createTag(api, tenant, { Name: 'Sale' });
    const job = await runImport(
      api,
      tenant,
      jsonl([
        {
          RecordType: 'Category',
          CategoryPath: ['shoes'],
          ShortDescription: 'added',
          LongDescription: 'not taken',
          CategoryMetadata: [
            { Key: 'size', Value: 'not taken' },
            { Key: 'color', Value: 'added' },
          ],
          Assets: [
            { AssetId: second.Id, IsDefault: true },
            { Sha256: sha256Of(pdf('c')), FileName: 'c.pdf', IsDefault: true },
          ],
        },
        { RecordType: 'Tag', Tag: 'SALE', Description: 'added' },
        { RecordType: 'PriceType', PriceTypeSymbol: 'GBP', Description: 'Pounds' },
      ]),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 3 });
    expect(await get<CategoryJson>(tenant, `/category/${category.Id}`)).toMatchObject({
      ShortDescription: 'added',
      LongDescription: 'kept',
      CategoryMetadata: [
        { Key: 'color', Value: 'added' },
        { Key: 'size', Value: 'kept' },
      ],
    });
    // The category's default image stays; the record's default image comes as another image.
    expect(await relations(tenant, `/categories/${category.Id}/image`)).toMatchObject([
      { AssetId: first.Id, IsDefault: true },
      { AssetId: second.Id, IsDefault: false },
    ]);
    expect(await relations(tenant, `/categories/${category.Id}/document`)).toMatchObject([
      { AssetId: third.Id, IsDefault: true },
    ]);
    expect((await get<{ Description: string }>(tenant, `/tag/${tag.Id}`)).Description).toBe(
      'added',
    );
    expect(
      (await get<Page<{ Description: string; PriceTypeSymbol: string }>>(tenant, '/pricetypes'))
        .Results,
    ).toMatchObject([{ Description: 'Pounds', PriceTypeSymbol: 'GBP' }]);
  });

  it('relates an item’s assets by id or content; fails an unknown one, a second default, one given twice', async () => {
    const tenant = await newTenant();
    const image = await createAsset(api, tenant, png(2, 2), 'image/png', 'a.png');
    const copy = await createAsset(api, tenant, png(2, 2), 'image/png', 'copy.png');
    const other = await createAsset(api, tenant, png(4, 4), 'image/png', 'o.png');
    const sha = sha256Of(png(2, 2));
    const job = await runImport(
      api,
      tenant,
      jsonl([
        {
          SKU: 'ok',
          Title: 'Related',
          Assets: [
            { Sha256: sha.toUpperCase(), FileName: 'copy.png', MimeType: 'IMAGE/PNG' },
            { AssetId: other.Id, IsDefault: true },
          ],
        },
        { Title: 'Unknown id', Assets: [{ AssetId: 999999 }] },
        { Title: 'Unknown name', Assets: [{ Sha256: sha, FileName: 'nope.png' }] },
        {
          Title: 'Two defaults',
          Assets: [
            { AssetId: image.Id, IsDefault: true },
            { AssetId: other.Id, IsDefault: true },
          ],
        },
        { Title: 'Twice', Assets: [{ AssetId: image.Id }, { Sha256: sha, FileName: 'a.png' }] },
        { Title: 'Neither', Assets: [{ FileName: 'a.png' }] },
      ]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect(job).toMatchObject({ RowsWritten: 1, RowsFailed: 5 });
    const results = await importResults(api, tenant, job.Id);
    expect(results.slice(1).map((r) => r.Errors)).toEqual([
      [
        {
          Field: 'Assets.0.AssetId',
          Message:
            'The catalog has no asset with the id 999999. Upload the file first and give its AssetId.',
          Code: 'AssetNotFound',
        },
      ],
      [
        {
          Field: 'Assets.0.Sha256',
          Message:
            'No uploaded file has these bytes, FileName and MimeType. Upload the files before importing.',
          Code: 'AssetNotFound',
        },
      ],
      [
        {
          Field: 'Assets.1.IsDefault',
          Message: 'This is a second default image. Mark one image as the default.',
        },
      ],
      [
        {
          Field: 'Assets.1',
          Message: `The asset ${image.Id} is given twice. Give each image or file once.`,
        },
      ],
      [{ Field: 'Assets.0.AssetId', Message: 'Assets.0 needs AssetId or Sha256.' }],
    ]);
    expect(await relations(tenant, `/items/${results[0]!.ItemId}/image`)).toMatchObject([
      { AssetId: copy.Id, IsDefault: false },
      { AssetId: other.Id, IsDefault: true },
    ]);
  });
});

describe('POST /private/catalog/imports (CSV empty texts)', () => {
  it('reads "" as an empty text where a text may be empty, an empty cell as absent', async () => {
    const tenant = await newTenant();
    const job = await runImport(
      api,
      tenant,
      'RecordType,SKU,Title,Model,ShortDescription,LongDescription,Tag,Description\n' +
        ',A,Empty,,"",,,\n' +
        '"","","Quoted everywhere","","","","",""\n' +
        'Tag,,,,,,Blank,""\n' +
        'Tag,,,,,,Absent,\n',
      CSV,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 4 });
    const items = (await get<Page<ItemJson>>(tenant, '/items?take=10')).Results;
    expect(items.map((i) => [i.SKU, i.Model, i.ShortDescription, i.LongDescription])).toEqual([
      ['A', null, '', null],
      [null, null, '', ''],
    ]);
    const tags = (await get<Page<{ Name: string; Description: string | null }>>(tenant, '/tags'))
      .Results;
    expect(tags.map((t) => [t.Name, t.Description])).toEqual([
      ['Blank', ''],
      ['Absent', null],
    ]);
  });

  it('exports an empty text as "" and an absent value as an empty cell', async () => {
    const tenant = await newTenant();
    await createItem(api, tenant, { SKU: 'E', Title: 'T', ShortDescription: '' });
    const response = await api.call({
      method: 'POST',
      url: '/private/catalog/exports',
      tenant,
      body: { Format: 'csv' },
    });
    expectStatus(response, 202);
    const done = await waitForJob<{ State: string; AssetUrl: string }>(
      api,
      tenant,
      response.headers.location!,
    );
    const file = await api.app.inject({
      url: new URL(done.AssetUrl).pathname,
      headers: { host: tenant.host },
    });
    const [, row] = file.body.trim().split('\n');
    // RecordType, SKU, RFID, UUID, Name, Title, Model, ShortDescription, LongDescription, …
    expect(row!.startsWith(',E,,,,T,,"",,1,false,')).toBe(true);
  });
});
