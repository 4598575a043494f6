// The lossless round trip: a rich catalog exported (JSONL and CSV) and imported with
// createMissing=true into an empty tenant holding the same assets gives the same catalog, compared
// through the API field by field: every field of every answer is kept, except ids, asset URLs
// and the dates the new tenant sets, which are mapped to names (ids) or checked for their shape.
// Also: variant groups across chunks, an asset missing from the tenant, bounded record sizes.
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTenant, type TestTenant } from '../../../support/test-api.ts';
import { expectStatus } from '../../../support/expectations.ts';
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
import {
  CSV,
  EXPORTS,
  JSONL,
  importResults,
  jsonl,
  runImport,
  useImportApi,
  waitForJob,
  type ExportJobJson,
} from '../imports/imports-fixtures.ts';
import { createAsset, jpeg, mp4, pdf, png } from '../../storage/storage-fixtures.ts';

const api = useImportApi();
const source = useTenant(api, 'round-trip-source');
let counter = 0;

async function get<T>(tenant: TestTenant, url: string): Promise<T> {
  const response = await api.call({ url, tenant });
  expectStatus(response, 200);
  return response.json<T>();
}

async function all<T>(tenant: TestTenant, url: string): Promise<T[]> {
  const results: T[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await get<Page<T>>(
      tenant,
      `${url}${url.includes('?') ? '&' : '?'}skip=${skip}&take=1000`,
    );
    results.push(...page.Results);
    if (results.length >= page.TotalCount) return results;
  }
}

/** The files the source's catalog relates: bytes, MIME type, name. */
const FILES: [Buffer, string, string][] = [
  [png(2, 2), 'image/png', 'front.png'],
  [png(2, 2), 'image/png', 'copy of front.png'], // the same bytes under another name
  [png(3, 3), 'image/png', 'back.png'],
  [jpeg(80), 'image/jpeg', 'logo.jpg'],
  [mp4(512), 'video/mp4', 'clip.mp4'],
  [pdf('manual'), 'application/pdf', 'manual.pdf'],
  [pdf('spec'), 'application/pdf', 'spec.pdf'],
];

/** Uploads FILES (in an order of its own, after others, so that ids differ); by file name. */
async function uploadFiles(tenant: TestTenant, order: number[]): Promise<Map<string, number>> {
  await createAsset(api, tenant, pdf('unrelated'), 'application/pdf', 'unrelated.pdf');
  const ids = new Map<string, number>();
  for (const i of order) {
    const [bytes, type, name] = FILES[i]!;
    ids.set(name, (await createAsset(api, tenant, bytes, type, name)).Id);
  }
  return ids;
}

const relate = async (path: string, assetId: number, isDefault: boolean) =>
  expectStatus(
    await api.call({
      method: 'POST',
      url: `${CATALOG}/${path}?assetId=${assetId}&isDefault=${isDefault}`,
      tenant: source,
    }),
    201,
  );

async function addMetadata(categoryId: number, key: string, value: string) {
  expectStatus(
    await api.call({
      method: 'POST',
      url: `${CATALOG}/categorymetadata`,
      tenant: source,
      body: { CategoryId: categoryId, Key: key, Value: value },
    }),
    201,
  );
}

beforeAll(async () => {
  const asset = await uploadFiles(source, [0, 1, 2, 3, 4, 5, 6]);
  const a = (name: string) => asset.get(name)!;

  const eur = await createPriceType(api, source, { PriceTypeSymbol: 'EUR', Description: 'Euro' });
  const usd = await createPriceType(api, source, {
    PriceTypeSymbol: 'USD',
    Description: '=US dollars',
  });
  await createPriceType(api, source, { PriceTypeSymbol: 'GBP', Description: 'Unused pounds' });
  const color = await createAttributeType(api, source, 'Color');
  const size = await createAttributeType(api, source, 'Size');
  await createAttributeType(api, source, 'Unused material');
  const sale = await createTag(api, source, { Name: 'Sale', Description: 'Half price' });
  const fresh = await createTag(api, source, { Name: 'New' });
  const blank = await createTag(api, source, { Name: '@Blank', Description: '' });
  await createTag(api, source, { Name: 'Unused', Description: 'No item has it' });

  const acme = await createBrand(api, source, 'Acme "quoted", Ltd');
  await relate(`brands/${acme.Id}/image`, a('logo.jpg'), true);
  await relate(`brands/${acme.Id}/document`, a('manual.pdf'), false);
  const formula = await createBrand(api, source, '=Formula brand');
  const lonely = await createBrand(api, source, 'Lonely');
  await relate(`brands/${lonely.Id}/image`, a('back.png'), false);

  // A tree in which a name recurs: Shirts at the root, under Men and under Women.
  const clothing = await createCategory(api, source, {
    Name: 'Clothing',
    ShortDescription: 'All clothes',
    LongDescription: 'Long text ü',
  });
  await addMetadata(clothing.Id, 'season', 'all');
  await addMetadata(clothing.Id, 'formula', '=1+1');
  await relate(`categories/${clothing.Id}/image`, a('front.png'), true);
  await relate(`categories/${clothing.Id}/image`, a('copy of front.png'), false);
  const men = await createCategory(api, source, {
    Name: 'Men',
    ShortDescription: '',
    ParentCategoryId: clothing.Id,
  });
  const menShirts = await createCategory(api, source, {
    Name: 'Shirts',
    LongDescription: 'Shirts for men',
    ParentCategoryId: men.Id,
  });
  await relate(`categories/${menShirts.Id}/video`, a('clip.mp4'), true);
  await relate(`categories/${menShirts.Id}/document`, a('spec.pdf'), true);
  const women = await createCategory(api, source, { Name: 'Women', ParentCategoryId: clothing.Id });
  const womenShirts = await createCategory(api, source, {
    Name: 'Shirts',
    ShortDescription: 'Shirts for women',
    ParentCategoryId: women.Id,
  });
  const rootShirts = await createCategory(api, source, { Name: 'Shirts' });
  // No item in it, and more metadata than one record holds (about 320 KB).
  const archive = await createCategory(api, source, {
    Name: '=Archive',
    ParentCategoryId: women.Id,
  });
  for (let i = 0; i < 80; i++)
    await addMetadata(
      archive.Id,
      `key ${String(i).padStart(2, '0')}`,
      `${i}`.repeat(4000).slice(0, 4000),
    );

  const shirt = await createItem(api, source, {
    SKU: 'S-1',
    Title: 'Shirt, "striped"\nsecond line',
    Name: 'Şık gömlek',
    Model: 'M1',
    ShortDescription: 'Short',
    LongDescription: 'Long ü',
    RFID: 'R1',
    UUID: 'U1',
    InStock: true,
    Rating: 4.25,
    PublicWebLink: 'https://example.com/s1',
    CategoryId: menShirts.Id,
    BrandId: acme.Id,
    Prices: [
      { PriceTypeId: eur.Id, NormalPrice: 19.99, DiscountPrice: 14.5 },
      { PriceTypeId: usd.Id, NormalPrice: 21 },
    ],
    DynamicAttributes: [
      { TypeId: color.Id, Value: 'Red' },
      { TypeId: size.Id, Value: 'M' },
    ],
    Tags: [{ Id: sale.Id }, { Id: fresh.Id }, { Id: blank.Id }],
  });
  await relate(`items/${shirt.Id}/image`, a('back.png'), false);
  await relate(`items/${shirt.Id}/image`, a('front.png'), true);
  await relate(`items/${shirt.Id}/video`, a('clip.mp4'), false);
  await relate(`items/${shirt.Id}/document`, a('manual.pdf'), true);
  await relate(`items/${shirt.Id}/document`, a('spec.pdf'), false);
  // A variant created before its default item, and another group of three.
  const variant = await createItem(api, source, {
    SKU: 'S-0',
    Title: 'Shirt variant',
    CategoryId: menShirts.Id,
    DynamicAttributes: [{ TypeId: color.Id, Value: 'Blue' }],
  });
  await relate(`items/${variant.Id}/image`, a('copy of front.png'), true);
  expectStatus(
    await api.call({
      method: 'POST',
      url: `${CATALOG}/items/${shirt.Id}/group`,
      tenant: source,
      body: [variant.Id],
    }),
    200,
  );
  const g1 = await createItem(api, source, {
    SKU: 'G-1',
    Title: 'Group',
    CategoryId: womenShirts.Id,
  });
  const g2 = await createItem(api, source, { SKU: 'G-2', Title: 'Group 2', BrandId: formula.Id });
  const g3 = await createItem(api, source, { SKU: 'G-3', Title: 'Group 3' });
  expectStatus(
    await api.call({
      method: 'POST',
      url: `${CATALOG}/items/${g1.Id}/group`,
      tenant: source,
      body: [g2.Id, g3.Id],
    }),
    200,
  );
  // Empty texts apart from absent ones, and texts a spreadsheet would run.
  await createItem(api, source, {
    SKU: '=E-1',
    Title: '=SUM(A1:A2)',
    Name: '-1',
    ShortDescription: '',
    LongDescription: null,
    Model: '+model',
    CategoryId: rootShirts.Id,
    Prices: [{ PriceTypeId: usd.Id, NormalPrice: 0 }],
    Tags: [{ Id: blank.Id }],
  });
  await createItem(api, source, {
    SKU: 'P-1',
    Title: 'Passive',
    ItemStatusId: 2,
    CategoryId: clothing.Id,
  });
  await createItem(api, source, { Title: 'No SKU', LongDescription: '' });
});

/**
 * Everything the API answers about the tenant's catalog, with ids (and asset URLs) replaced by
 * what identifies the resource in any tenant (a name, a path, an asset's name, type and bytes)
 * and lists in an order of those, and dates checked and set aside. Every other field is kept
 * as answered, so a field the import loses or changes makes two snapshots differ.
 */
async function snapshot(tenant: TestTenant, withRelations = true) {
  const assets = await all<{
    Id: number;
    FileName: string;
    MimeType: string;
    Size: number;
    AssetUrl: string;
  }>(tenant, '/management/storage/assets');
  const assetKey = new Map<number, string>();
  for (const asset of assets) {
    const content = await api.app.inject({
      url: new URL(asset.AssetUrl).pathname,
      headers: { host: tenant.host },
    });
    expectStatus(content, 200);
    const sha = createHash('sha256').update(content.rawPayload).digest('hex');
    assetKey.set(asset.Id, `${asset.FileName} ${asset.MimeType} ${asset.Size} ${sha}`);
  }
  const priceTypes = await all<{ Id: number; PriceTypeSymbol: string }>(
    tenant,
    `${CATALOG}/pricetypes`,
  );
  const types = await all<{ Id: number; Description: string }>(
    tenant,
    `${CATALOG}/dynamicattributetypes`,
  );
  const tags = await all<{ Id: number; Name: string }>(tenant, `${CATALOG}/tags`);
  const brands = await all<{ Id: number; Name: string }>(tenant, `${CATALOG}/brands`);
  const tree = (await get<{ Categories: Node[] }>(tenant, `${CATALOG}/categories`)).Categories;
  interface Node {
    Id: number;
    Name: string;
    CategoryTreeItems: Node[];
  }
  const pathOf = new Map<number, string>();
  const walk = (nodes: Node[], parent: string) => {
    for (const node of nodes) {
      pathOf.set(node.Id, `${parent}/${node.Name}`);
      walk(node.CategoryTreeItems, `${parent}/${node.Name}`);
    }
  };
  walk(tree, '');
  const items = await all<ItemJson>(tenant, `${CATALOG}/items`);
  const itemKey = new Map(items.map((i) => [i.Id, i.SKU ?? `(no SKU) ${i.Title}`]));
  const keyOf = (map: Map<number, string>, id: number | null) => {
    if (id === null) return null;
    expect(map.has(id), `id ${id} unknown`).toBe(true);
    return map.get(id);
  };
  const symbols = new Map(priceTypes.map((p) => [p.Id, p.PriceTypeSymbol]));
  const typeNames = new Map(types.map((t) => [t.Id, t.Description]));
  const tagNames = new Map(tags.map((t) => [t.Id, t.Name]));
  const brandNames = new Map(brands.map((b) => [b.Id, b.Name]));
  const date = (value: unknown) => {
    expect(new Date(value as string).toISOString()).toBe(value);
    return '(a date)';
  };
  const sorted = <T>(list: T[]) =>
    [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const attribute = (a: Record<string, unknown>) => ({
    ...a,
    TypeId: keyOf(typeNames, a.TypeId as number),
    TypeValueId: `${keyOf(typeNames, a.TypeId as number)}=${a.Value as string}`,
  });
  const relations = async (entity: string, id: number) => {
    if (!withRelations) return null;
    const kinds: Record<string, unknown> = {};
    for (const kind of ['image', 'video', 'document'])
      kinds[kind] = sorted(
        (
          await get<{ AssetId: number; AssetUrl: string }[]>(
            tenant,
            `${CATALOG}/${entity}/${id}/${kind}`,
          )
        ).map((r) => {
          const key = keyOf(assetKey, r.AssetId);
          expect(r.AssetUrl).toBe(assets.find((x) => x.Id === r.AssetId)!.AssetUrl);
          return { ...r, AssetId: key, AssetUrl: key };
        }),
      );
    return kinds;
  };
  const node = (n: Node): unknown => ({
    ...n,
    Id: keyOf(pathOf, n.Id),
    CategoryTreeItems: sorted(n.CategoryTreeItems.map(node)),
  });

  const categories = [];
  for (const id of pathOf.keys()) {
    const category = await get<{ Id: number; ParentCategoryId: number | null }>(
      tenant,
      `${CATALOG}/category/${id}`,
    );
    categories.push({
      ...category,
      Id: keyOf(pathOf, category.Id),
      ParentCategoryId: keyOf(pathOf, category.ParentCategoryId),
      Relations: await relations('categories', id),
    });
  }
  const values = [];
  for (const type of types)
    values.push({
      Type: type.Description,
      Values: sorted(
        (
          await get<Record<string, unknown>[]>(
            tenant,
            `${CATALOG}/dynamicattributetypes/${type.Id}/dynamicattributes`,
          )
        ).map(attribute),
      ),
    });
  const brandList = [];
  for (const brand of brands)
    brandList.push({
      ...brand,
      Id: brand.Name,
      Relations: await relations('brands', brand.Id),
    });
  const itemList = [];
  for (const item of items)
    itemList.push({
      ...item,
      Id: keyOf(itemKey, item.Id),
      CategoryId: keyOf(pathOf, item.CategoryId),
      BrandId: keyOf(brandNames, item.BrandId),
      DefaultItemId: keyOf(itemKey, item.DefaultItemId),
      DateAdded: date(item.DateAdded),
      DateModified: date(item.DateModified),
      Prices: sorted(
        item.Prices.map((p) => ({
          ...p,
          PriceId: '(an id)',
          ItemId: keyOf(itemKey, p.ItemId),
          PriceTypeId: keyOf(symbols, p.PriceTypeId),
        })),
      ),
      DynamicAttributes: sorted(item.DynamicAttributes.map((a) => attribute({ ...a }))),
      Tags: sorted(item.Tags.map((t) => ({ ...t, Id: keyOf(tagNames, t.Id) }))),
      Relations: await relations('items', item.Id),
    });
  return {
    priceTypes: sorted(priceTypes.map((p) => ({ ...p, Id: p.PriceTypeSymbol }))),
    attributeTypes: sorted(types.map((t) => ({ ...t, Id: t.Description }))),
    attributeValues: sorted(values),
    tags: sorted(tags.map((t) => ({ ...t, Id: t.Name }))),
    brands: sorted(brandList),
    tree: sorted(tree.map(node)),
    categories: sorted(categories),
    items: sorted(itemList),
  };
}

async function exportFile(tenant: TestTenant, body: object) {
  const response = await api.call({ method: 'POST', url: EXPORTS, tenant, body });
  expectStatus(response, 202);
  const job = await waitForJob<ExportJobJson>(api, tenant, response.headers.location!);
  expect(job.State).toBe('Succeeded');
  const file = await api.app.inject({
    url: new URL(job.AssetUrl!).pathname,
    headers: { host: tenant.host },
  });
  expectStatus(file, 200);
  return { job, text: file.body };
}

describe('POST /private/catalog/exports (lossless round trip)', () => {
  for (const format of ['jsonl', 'csv'] as const) {
    it(`${format}: imported into an empty tenant with the same assets, the catalog is the same field by field`, async () => {
      const { job, text } = await exportFile(source, { Format: format });
      expect(job.ItemsWritten).toBe(8);
      const records =
        format === 'jsonl'
          ? text.trim().split('\n')
          : parse<Record<string, string>>(text, { columns: true }).map((r) => JSON.stringify(r));
      // The category with 320 KB of metadata is spread over records of at most 256 KiB.
      for (const line of text.trim().split('\n'))
        expect(Buffer.byteLength(line)).toBeLessThanOrEqual(256 * 1024);
      expect(records.filter((r) => r.includes('=Archive')).length).toBeGreaterThan(1);

      const target = await api.createTenant(`round-trip-${format}-${++counter}`);
      await uploadFiles(target, [6, 5, 4, 3, 2, 1, 0]);
      const imported = await runImport(
        api,
        target,
        text,
        format === 'jsonl' ? JSONL : CSV,
        'createMissing=true',
      );
      expect(imported.Error).toBeNull();
      expect(imported).toMatchObject({ State: 'Succeeded', RowsFailed: 0 });
      expect(imported.RowsWritten).toBe(records.length);

      const before = await snapshot(source);
      // The catalog compared is the rich one built above (the comparison cannot pass empty).
      expect(before.tree.length).toBe(2);
      expect(JSON.stringify(before.categories)).toContain('/Clothing/Men/Shirts');
      expect(JSON.stringify(before.items)).toContain('"ShortDescription":""');
      expect(JSON.stringify(before.items)).toContain('"IsDefault":true');
      expect(await snapshot(target)).toEqual(before);
    });
  }

  it('a later import of the same file into the same tenant adds nothing and changes nothing', async () => {
    const { text } = await exportFile(source, { Format: 'jsonl' });
    const target = await api.createTenant(`round-trip-again-${++counter}`);
    await uploadFiles(target, [0, 1, 2, 3, 4, 5, 6]);
    expect(await runImport(api, target, text, JSONL, 'createMissing=true')).toMatchObject({
      State: 'Succeeded',
    });
    const once = await snapshot(target);
    const items = text
      .trim()
      .split('\n')
      .filter((line) => !line.includes('"RecordType"'));
    // The items are there already (their SKUs fail); every other record settles.
    const again = await runImport(
      api,
      target,
      text
        .trim()
        .split('\n')
        .filter((line) => line.includes('"RecordType"'))
        .join('\n') + '\n',
      JSONL,
      'createMissing=true',
    );
    expect(again).toMatchObject({ State: 'Succeeded', RowsFailed: 0 });
    expect(items.length).toBe(8);
    expect(await snapshot(target)).toEqual(once);
  });

  it('keeps variant groups that span the import’s chunks', async () => {
    const tenant = await api.createTenant(`round-trip-groups-${++counter}`);
    // 1,200 items; the group of records 995..1005 crosses the first chunk's end.
    const records = Array.from({ length: 1200 }, (_, i) => ({
      SKU: `V-${i}`,
      Title: `Variant ${i}`,
      ...(i >= 995 && i <= 1005 ? { GroupKey: 'across' } : {}),
      ...(i === 3 || i === 1199 ? { GroupKey: 'far' } : {}),
    }));
    expect(await runImport(api, tenant, jsonl(records), JSONL)).toMatchObject({
      State: 'Succeeded',
      RowsWritten: 1200,
    });
    for (const format of ['jsonl', 'csv'] as const) {
      const { text } = await exportFile(tenant, { Format: format });
      const target = await api.createTenant(`round-trip-groups-${format}-${++counter}`);
      expect(
        await runImport(api, target, text, format === 'jsonl' ? JSONL : CSV, 'createMissing=true'),
      ).toMatchObject({ State: 'Succeeded', RowsWritten: 1200 });
      const groups = async (t: TestTenant) =>
        (await snapshot(t, false)).items.map((i) => [i.Id, i.DefaultItemId]);
      const expected = await groups(tenant);
      expect(expected.filter(([, d]) => d === 'V-995')).toHaveLength(11);
      expect(await groups(target)).toEqual(expected);
    }
  }, 120_000); // 1,200 items imported, exported and imported again

  it('fails a record whose asset the tenant lacks (AssetNotFound); the others are written', async () => {
    const { text } = await exportFile(source, { Format: 'jsonl' });
    const target = await api.createTenant(`round-trip-no-assets-${++counter}`);
    const rejected = await runImport(api, target, text, JSONL, 'createMissing=true');
    expect(rejected).toMatchObject({ State: 'Failed', RowsWritten: 0 });
    const job = await runImport(
      api,
      target,
      text,
      JSONL,
      'createMissing=true&errorPolicy=SkipFailedRows',
    );
    // Acme, Lonely, Clothing, Clothing/Men/Shirts, S-1 and S-0 relate assets.
    expect(job).toMatchObject({ State: 'Succeeded', RowsFailed: 6 });
    const failed = (await importResults(api, target, job.Id)).filter((r) => r.Status === 'Failed');
    for (const result of failed) {
      expect(result.Errors![0]).toMatchObject({ Field: 'Assets.0.Sha256', Code: 'AssetNotFound' });
      expect(result.Errors![0]!.Message).toMatch(/Upload the files before importing\.$/);
    }
    // The categories exist all the same (created for the records that name them).
    const paths = JSON.stringify((await snapshot(target, false)).categories);
    expect(paths).toContain('/Clothing/Men/Shirts');
  });
});
