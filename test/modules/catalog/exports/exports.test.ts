// POST /private/catalog/exports: a job writing the matching items as JSONL or CSV to an
// asset, in the import's layout; the file imported into an empty tenant gives the same catalog,
// compared item by item.
import { parse } from 'csv-parse/sync';
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
import { expectError, expectStatus } from '../../../support/expectations.ts';
import {
  CSV,
  EXPORTS,
  JSONL,
  runImport,
  useImportApi,
  waitForJob,
  type ExportJobJson,
} from '../imports/imports-fixtures.ts';

const api = useImportApi();
const source = useTenant(api, 'export-source');
let counter = 0;

async function items(tenant: TestTenant): Promise<ItemJson[]> {
  const response = await api.call({ url: `${CATALOG}/items?take=1000`, tenant });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>().Results;
}

async function exportFile(
  tenant: TestTenant,
  body: object,
): Promise<{ job: ExportJobJson; text: string; disposition: string | undefined }> {
  const response = await api.call({ method: 'POST', url: EXPORTS, tenant, body });
  expectStatus(response, 202);
  const job = await waitForJob<ExportJobJson>(api, tenant, response.headers.location!);
  expect(job.State).toBe('Succeeded');
  const file = await api.app.inject({
    url: new URL(job.AssetUrl!).pathname,
    headers: { host: tenant.host },
  });
  expectStatus(file, 200);
  return { job, text: file.body, disposition: file.headers['content-disposition'] as string };
}

/** An item as another tenant would have it: names for ids, its group by its default item's SKU. */
async function comparable(tenant: TestTenant) {
  const all = await items(tenant);
  const skuOf = new Map(all.map((i) => [i.Id, i.SKU]));
  const categories = new Map<number, string>();
  for (const item of all)
    if (item.CategoryId !== null && !categories.has(item.CategoryId))
      categories.set(
        item.CategoryId,
        (await api.call({ url: `${CATALOG}/category/${item.CategoryId}`, tenant })).json<{
          Name: string;
        }>().Name,
      );
  const brands = new Map<number, string>();
  for (const item of all)
    if (item.BrandId !== null && !brands.has(item.BrandId))
      brands.set(
        item.BrandId,
        (await api.call({ url: `${CATALOG}/brand/${item.BrandId}`, tenant })).json<{
          Name: string;
        }>().Name,
      );
  return all
    .map((i) => ({
      SKU: i.SKU,
      RFID: i.RFID,
      UUID: i.UUID,
      Name: i.Name,
      Title: i.Title,
      Model: i.Model,
      ShortDescription: i.ShortDescription,
      LongDescription: i.LongDescription,
      ItemStatusId: i.ItemStatusId,
      InStock: i.InStock,
      PublicWebLink: i.PublicWebLink,
      Rating: i.Rating,
      Category: i.CategoryId === null ? null : categories.get(i.CategoryId),
      Brand: i.BrandId === null ? null : brands.get(i.BrandId),
      Group: i.DefaultItemId === null ? null : skuOf.get(i.DefaultItemId),
      Prices: i.Prices.map((p) => [p.PriceTypeSymbol, p.NormalPrice, p.DiscountPrice]),
      DynamicAttributes: i.DynamicAttributes.map((a) => [a.TypeName, a.Value]),
      Tags: i.Tags.map((t) => [t.Name, t.Description]),
    }))
    .sort((a, b) => String(a.SKU).localeCompare(String(b.SKU)));
}

beforeAll(async () => {
  const eur = await createPriceType(api, source, { PriceTypeSymbol: '€' });
  const usd = await createPriceType(api, source, { PriceTypeSymbol: 'USD' });
  const parent = await createCategory(api, source, { Name: 'Clothing' });
  const shirts = await createCategory(api, source, { Name: 'Shirts', ParentCategoryId: parent.Id });
  const brand = await createBrand(api, source, 'Acme "quoted", Ltd');
  const tag = await createTag(api, source, { Name: 'Sale', Description: 'Half price' });
  const plain = await createTag(api, source, { Name: 'New' });
  const color = await createAttributeType(api, source, 'Color');
  const size = await createAttributeType(api, source, 'Size');
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
    CategoryId: shirts.Id,
    BrandId: brand.Id,
    Prices: [
      { PriceTypeId: eur.Id, NormalPrice: 19.99, DiscountPrice: 14.5 },
      { PriceTypeId: usd.Id, NormalPrice: 21 },
    ],
    DynamicAttributes: [
      { TypeId: color.Id, Value: 'Red' },
      { TypeId: size.Id, Value: 'M' },
    ],
    Tags: [{ Id: tag.Id }, { Id: plain.Id }],
  });
  // A variant created before its default item: the export still lists the default first.
  const variant = await createItem(api, source, {
    SKU: 'S-0',
    Title: 'Shirt variant',
    CategoryId: shirts.Id,
  });
  await api.call({
    method: 'POST',
    url: `${CATALOG}/items/${shirt.Id}/group`,
    tenant: source,
    body: [variant.Id],
  });
  await createItem(api, source, {
    SKU: 'P-1',
    Title: 'Passive',
    ItemStatusId: 2,
    CategoryId: parent.Id,
  });
  await createItem(api, source, { SKU: 'B-1', Title: 'Bare' });
});

describe('POST /private/catalog/exports', () => {
  for (const format of ['jsonl', 'csv'] as const) {
    it(`${format}: the file imports into an empty tenant to the same catalog`, async () => {
      const { job, text } = await exportFile(source, { Format: format });
      expect(job.ItemsWritten).toBe(4);
      const target = await api.createTenant(`export-target-${format}-${++counter}`);
      const imported = await runImport(
        api,
        target,
        text,
        format === 'jsonl' ? JSONL : CSV,
        'createMissing=true',
      );
      // The items and, before them, the price types, types, tags, brand and categories.
      expect(imported).toMatchObject({ State: 'Succeeded', RowsWritten: 13, RowsFailed: 0 });
      expect(await comparable(target)).toEqual(await comparable(source));
    });
  }

  it('exports only the items matching the filters', async () => {
    const shirts = (await items(source)).find((i) => i.SKU === 'S-1')!;
    const byCategory = await exportFile(source, { CategoryId: shirts.CategoryId });
    expect(byCategory.job.ItemsWritten).toBe(2);
    const active = await exportFile(source, { IncludePassiveItems: false });
    expect(active.text).not.toContain('"P-1"');
    expect(active.job.ItemsWritten).toBe(3);
    const text = await exportFile(source, { Query: 'bare' });
    expect(text.job.ItemsWritten).toBe(1);
    expect(JSON.parse(text.text.trim())).toEqual({
      SKU: 'B-1',
      Title: 'Bare',
      ItemStatusId: 1,
      InStock: false,
      Prices: [],
      DynamicAttributes: [],
      Tags: [],
    });
  });

  it('succeeds without a file when a JSONL export has nothing to write; CSV keeps its header', async () => {
    const empty = await api.createTenant(`export-empty-${++counter}`);
    for (const Format of ['jsonl', 'csv']) {
      const response = await api.call({
        method: 'POST',
        url: EXPORTS,
        tenant: empty,
        body: { Format },
      });
      expectStatus(response, 202);
      const job = await waitForJob<ExportJobJson>(api, empty, response.headers.location!);
      expect(job).toMatchObject({ State: 'Succeeded', ItemsWritten: 0, Error: null });
      if (Format === 'jsonl') expect(job).toMatchObject({ AssetId: null, AssetUrl: null });
      else expect(job.AssetUrl).toEqual(expect.any(String));
    }
  });

  it('answers 400 for unknown references and bad bodies, 404 for another tenant’s export', async () => {
    expectError(
      await api.call({ method: 'POST', url: EXPORTS, tenant: source, body: { BrandId: 999999 } }),
      400,
      'ValidationFailed',
    );
    expectStatus(
      await api.call({ method: 'POST', url: EXPORTS, tenant: source, body: { Format: 'xml' } }),
      400,
    );
    expectStatus(
      await api.call({ method: 'POST', url: EXPORTS, tenant: source, body: { Colour: 1 } }),
      400,
    );
    const { job } = await exportFile(source, {});
    const other = await api.createTenant(`export-other-${++counter}`);
    expectError(await api.call({ url: `${EXPORTS}/${job.Id}`, tenant: other }), 404, 'NotFound');
    expectError(await api.call({ url: `${EXPORTS}/999999`, tenant: source }), 404, 'NotFound');
  });
});

// CSV injection (OWASP): text a spreadsheet would run as a formula (= + - @, tab, carriage return
// first, or the full-width ＝ ＋ － ＠ some locales take for them) is written with a single quote before it, the import takes the quote off again, and the
// file is served as an attachment.
describe('POST /private/catalog/exports (formulas in CSV)', () => {
  const formulas = {
    Title: '=HYPERLINK("http://127.0.0.1/x","Click")',
    Name: "+1+cmd|' /C calc'!A0",
    Model: '-2+3',
    ShortDescription: '@SUM(1,2)',
    LongDescription: '\tTabbed',
    RFID: '\rCarriage',
    UUID: "'=already quoted",
  };
  const fullWidth = {
    Title: '＝HYPERLINK("http://127.0.0.1/x","Click")',
    Name: '＋1＋cmd',
    Model: '－2＋3',
    ShortDescription: '＠SUM(1,2)',
    LongDescription: 'Size ＝ 2',
  };

  it('neutralises formula cells, serves the file as an attachment, and imports back the same values', async () => {
    const tenant = await api.createTenant(`export-formulas-${++counter}`);
    const brand = await createBrand(api, tenant, '=Brand');
    await createItem(api, tenant, { SKU: '=SKU', BrandId: brand.Id, ...formulas });
    await createItem(api, tenant, { SKU: 'plain', Title: 'Plain - no formula', Model: "'quote" });
    await createItem(api, tenant, { SKU: 'wide', ...fullWidth });

    for (const format of ['csv', 'jsonl'] as const) {
      const { text, disposition } = await exportFile(tenant, { Format: format });
      expect(disposition).toMatch(/^attachment; filename="catalog-export-\d+\.(csv|jsonl)"/);
      if (format === 'jsonl') continue;
      const rows = parse<Record<string, string>>(text, { columns: true });
      const risky = rows
        .flatMap((row) => Object.values(row))
        .filter((cell) => /^[=+\-@\t\r＝＋－＠]/.test(cell));
      expect(risky).toEqual([]);
      const row = rows.find((r) => r.SKU === "'=SKU")!;
      expect(row).toMatchObject({
        Title: `'${formulas.Title}`,
        Model: "'-2+3",
        LongDescription: "'\tTabbed",
        UUID: "''=already quoted",
        Brand: "'=Brand",
      });
      expect(rows.find((r) => r.SKU === 'wide')).toMatchObject({
        Title: `'${fullWidth.Title}`,
        Name: `'${fullWidth.Name}`,
        Model: `'${fullWidth.Model}`,
        ShortDescription: `'${fullWidth.ShortDescription}`,
        LongDescription: fullWidth.LongDescription,
      });
      // Text that only contains such characters, or starts with a quote alone, is untouched.
      expect(rows.find((r) => r.SKU === 'plain')).toMatchObject({
        Title: 'Plain - no formula',
        Model: "'quote",
      });
      const target = await api.createTenant(`export-formulas-in-${++counter}`);
      const imported = await runImport(api, target, text, CSV, 'createMissing=true');
      // The three items and the brand's record.
      expect(imported).toMatchObject({ State: 'Succeeded', RowsWritten: 4, RowsFailed: 0 });
      expect(await comparable(target)).toEqual(await comparable(tenant));
    }
  });
});
