// POST /private/catalog/imports and its job: each format with each error policy,
// malformed records named by line, references by id and by name (created on request), variants by
// GroupKey across chunks, cancel, results, and the errors of the route.
import { describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createBrand,
  createPriceType,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import {
  CSV,
  IMPORTS,
  JSONL,
  importResults,
  jsonl,
  postImport,
  runImport,
  useImportApi,
  waitForJob,
  type ImportJobJson,
} from './imports-fixtures.ts';

const api = useImportApi();
let counter = 0;
const newTenant = () => api.createTenant(`imp-${++counter}-${Date.now() % 100000}`);

async function items(tenant: TestTenant): Promise<ItemJson[]> {
  const response = await api.call({ url: `${CATALOG}/items?take=1000`, tenant });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>().Results;
}

const good = (n: number) => ({
  SKU: `SKU-${n}`,
  Title: `Item ${n}`,
  Prices: [{ PriceTypeSymbol: 'EUR', NormalPrice: 10 + n, DiscountPrice: 5 }],
  DynamicAttributes: [{ TypeName: 'Color', Value: n % 2 ? 'Red' : 'Blue' }],
  Tags: [{ Name: 'Imported' }],
  Category: 'Shoes',
  Brand: 'Acme',
});

// Line 3: Title missing; line 4: not JSON; line 6 (after a blank line): not an object.
const MIXED_JSONL =
  [
    JSON.stringify(good(1)),
    JSON.stringify(good(2)),
    JSON.stringify({ SKU: 'X' }),
    '{"Title":',
    '',
  ].join('\n') +
  '\n[1,2]\n' +
  JSON.stringify(good(3)) +
  '\n';

const MIXED_CSV =
  'SKU,Title,Category,Brand,Prices,DynamicAttributes,Tags,InStock,Rating\n' +
  'C-1,Shirt,Shoes,Acme,"[{""PriceTypeSymbol"":""EUR"",""NormalPrice"":12}]","[{""TypeName"":""Color"",""Value"":""Red""}]","[{""Name"":""Imported""}]",true,4.5\n' +
  'C-2,,Shoes,Acme,,,,false,\n' +
  'C-3,Hat,Shoes,Acme,[not json,,,,\n' +
  'C-4,"Scarf, wool",,,,,,1,\n' +
  'C-5,Too,many,cells,,,,,,,\n';

describe('POST /private/catalog/imports (JSONL)', () => {
  it('SkipFailedRows writes the good records and names each failed one by line', async () => {
    const tenant = await newTenant();
    const job = await runImport(
      api,
      tenant,
      MIXED_JSONL,
      JSONL,
      'errorPolicy=SkipFailedRows&createMissing=true',
    );
    expect(job).toMatchObject({
      State: 'Succeeded',
      RowsRead: 6,
      RowsWritten: 3,
      RowsFailed: 3,
      Percentage: 100,
    });
    const results = await importResults(api, tenant, job.Id);
    expect(results.map((r) => [r.Line, r.Status])).toEqual([
      [1, 'Written'],
      [2, 'Written'],
      [3, 'Failed'],
      [4, 'Failed'],
      [6, 'Failed'],
      [7, 'Written'],
    ]);
    expect(results[2]!.Errors).toEqual([
      { Field: 'Title', Message: 'Title is missing. Every row needs a Title.' },
    ]);
    expect(results[3]!.Errors![0]!.Field).toBe('(line)');
    expect(results[4]!.Errors).toEqual([
      {
        Field: '(line)',
        Message:
          'This line is not a JSON object. Each line of a JSONL file is one item, like {"Title": "Trail jacket"}.',
      },
    ]);
    const written = await items(tenant);
    expect(written.map((i) => i.SKU)).toEqual(['SKU-1', 'SKU-2', 'SKU-3']);
    expect(written.map((i) => i.Id)).toEqual(results.filter((r) => r.ItemId).map((r) => r.ItemId));
    const first = written[0]!;
    expect(first.Prices).toMatchObject([
      { NormalPrice: 11, DiscountPrice: 5, PriceTypeSymbol: 'EUR' },
    ]);
    expect(first.DynamicAttributes).toMatchObject([{ TypeName: 'Color', Value: 'Red' }]);
    expect(first.Tags).toMatchObject([{ Name: 'Imported' }]);
    expect(first.CategoryId).toEqual(written[1]!.CategoryId);
    // The stored documents are what the item routes answer, and search finds the items.
    const fetched = await api.call({ url: `${CATALOG}/item/${first.Id}`, tenant });
    expect(fetched.json<ItemJson>()).toEqual(first);
    const search = await api.call({ url: `${CATALOG}/items/search?q=Item`, tenant });
    expect(search.json<Page<ItemJson>>().TotalCount).toBe(3);
  });

  it('RejectAll writes nothing when a record fails, and reports only the failures', async () => {
    const tenant = await newTenant();
    const job = await runImport(api, tenant, MIXED_JSONL, JSONL, 'createMissing=true');
    expect(job).toMatchObject({
      State: 'Failed',
      ErrorPolicy: 'RejectAll',
      RowsWritten: 0,
      RowsFailed: 3,
    });
    expect(job.Error).toMatch(/3 records failed validation/);
    expect((await importResults(api, tenant, job.Id)).map((r) => r.Line)).toEqual([3, 4, 6]);
    expect(await items(tenant)).toEqual([]);
  });

  it('RejectAll writes every record of a good file', async () => {
    const tenant = await newTenant();
    const records = Array.from({ length: 25 }, (_, i) => good(i));
    const job = await runImport(
      api,
      tenant,
      jsonl(records),
      JSONL,
      'errorPolicy=RejectAll&createMissing=true',
    );
    expect(job).toMatchObject({
      State: 'Succeeded',
      Phase: 'Writing',
      RowsRead: 25,
      RowsWritten: 25,
      RowsFailed: 0,
    });
    expect((await items(tenant)).length).toBe(25);
  });

  it('fails a record naming a missing category, brand, tag, type or price type unless createMissing', async () => {
    const tenant = await newTenant();
    const job = await runImport(api, tenant, jsonl([good(1)]), JSONL, 'errorPolicy=SkipFailedRows');
    expect(job.RowsFailed).toBe(1);
    const [result] = await importResults(api, tenant, job.Id);
    expect(result!.Errors!.map((e) => e.Field).sort()).toEqual(
      [
        'Brand',
        'Category',
        'DynamicAttributes.0.TypeName',
        'Prices.0.PriceTypeSymbol',
        'Tags.0.Name',
      ].sort(),
    );
  });

  it('takes references by id, refuses unknown ids, duplicate SKUs and both id and name', async () => {
    const tenant = await newTenant();
    const priceType = await createPriceType(api, tenant, { PriceTypeSymbol: 'USD' });
    const brand = await createBrand(api, tenant);
    const job = await runImport(
      api,
      tenant,
      jsonl([
        {
          SKU: 'D',
          Title: 'By id',
          BrandId: brand.Id,
          Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 3 }],
        },
        { SKU: 'D', Title: 'Same SKU' },
        { Title: 'Unknown brand', BrandId: 999999 },
        { Title: 'Both', BrandId: brand.Id, Brand: 'Acme' },
        {
          Title: 'Two prices of a type',
          Prices: [
            { PriceTypeId: priceType.Id, NormalPrice: 1 },
            { PriceTypeSymbol: 'USD', NormalPrice: 2 },
          ],
        },
        {
          Title: 'Discount above',
          Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 1, DiscountPrice: 2 }],
        },
        { Title: 'Unknown field', Colour: 'red' },
      ]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect(job).toMatchObject({ RowsWritten: 1, RowsFailed: 6 });
    const results = await importResults(api, tenant, job.Id);
    expect(results.map((r) => r.Errors?.[0]?.Field ?? 'ok')).toEqual([
      'ok',
      'SKU',
      'BrandId',
      'Brand',
      'Prices.1.PriceTypeSymbol',
      'Prices.0.DiscountPrice',
      'Colour',
    ]);
    expect(results[1]).toMatchObject({ SKU: 'D', Status: 'Failed' });
    expect(results[1]!.Errors![0]!.Message).toBe(
      'The SKU "D" is also the SKU of line 1 of the file. Give each item a SKU of its own, or leave SKU empty.',
    );
    const [item] = await items(tenant);
    expect(item).toMatchObject({
      BrandId: brand.Id,
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 3 }],
    });
    // A SKU already in the catalog fails the next import's record.
    const again = await runImport(
      api,
      tenant,
      jsonl([{ SKU: 'D', Title: 'Again' }]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect((await importResults(api, tenant, again.Id))[0]!.Errors).toEqual([
      {
        Field: 'SKU',
        Message:
          'The SKU "D" is also the SKU of an item already in the catalog. Give each item a SKU of its own, or leave SKU empty.',
      },
    ]);
  });

  it('groups variants by GroupKey across chunks, the first record being the default item', async () => {
    const tenant = await newTenant();
    // 2,500 records: the group's variants come in the second and third chunks of 1,000.
    const records = Array.from({ length: 2500 }, (_, i) => ({
      Title: `V ${i}`,
      ...(i === 10 || i === 1500 || i === 2400 ? { GroupKey: 'shirt' } : {}),
      ...(i === 20 ? { GroupKey: 'alone' } : {}),
    }));
    const job = await runImport(api, tenant, jsonl(records), JSONL, 'errorPolicy=RejectAll');
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 2500 });
    const results = await importResults(api, tenant, job.Id);
    expect(results).toHaveLength(2500);
    const idOf = (i: number) => results[i]!.ItemId!;
    const fetch = async (id: number) =>
      (await api.call({ url: `${CATALOG}/item/${id}`, tenant })).json<ItemJson>();
    expect((await fetch(idOf(10))).DefaultItemId).toBe(idOf(10));
    expect((await fetch(idOf(1500))).DefaultItemId).toBe(idOf(10));
    expect((await fetch(idOf(2400))).DefaultItemId).toBe(idOf(10));
    expect((await fetch(idOf(20))).DefaultItemId).toBeNull(); // a group of one is none
    expect((await fetch(idOf(11))).DefaultItemId).toBeNull();
  });
});

describe('POST /private/catalog/imports (encodings)', () => {
  it('skips a byte order mark before the first record, in JSONL and in CSV', async () => {
    const tenant = await newTenant();
    const a = await runImport(api, tenant, '\uFEFF{"Title":"Ünïcode ☂"}\r\n', JSONL);
    expect(a).toMatchObject({ State: 'Succeeded', RowsWritten: 1 });
    const b = await runImport(api, tenant, '\uFEFFTitle\r\nŞık\r\n', CSV);
    expect(b).toMatchObject({ State: 'Succeeded', RowsWritten: 1 });
    expect((await items(tenant)).map((i) => i.Title)).toEqual(['Ünïcode ☂', 'Şık']);
  });
});

describe('POST /private/catalog/imports (CSV)', () => {
  it('SkipFailedRows: converts cells, names bad rows by line', async () => {
    const tenant = await newTenant();
    const job = await runImport(
      api,
      tenant,
      MIXED_CSV,
      CSV,
      'errorPolicy=SkipFailedRows&createMissing=true',
    );
    expect(job).toMatchObject({
      State: 'Succeeded',
      Format: 'csv',
      RowsRead: 5,
      RowsWritten: 2,
      RowsFailed: 3,
    });
    const results = await importResults(api, tenant, job.Id);
    expect(results.map((r) => [r.Line, r.Status, r.Errors?.[0]?.Field])).toEqual([
      [2, 'Written', undefined],
      [3, 'Failed', 'Title'],
      [4, 'Failed', 'Prices'],
      [5, 'Written', undefined],
      [6, 'Failed', '(line)'],
    ]);
    const [shirt, scarf] = await items(tenant);
    expect(shirt).toMatchObject({ SKU: 'C-1', Title: 'Shirt', InStock: true, Rating: 4.5 });
    expect(shirt!.Prices).toMatchObject([{ NormalPrice: 12, PriceTypeSymbol: 'EUR' }]);
    expect(scarf).toMatchObject({
      SKU: 'C-4',
      Title: 'Scarf, wool',
      InStock: true,
      CategoryId: null,
    });
  });

  it('RejectAll: nothing written', async () => {
    const tenant = await newTenant();
    const job = await runImport(api, tenant, MIXED_CSV, CSV, 'createMissing=true');
    expect(job).toMatchObject({ State: 'Failed', RowsWritten: 0, RowsFailed: 3 });
    expect(await items(tenant)).toEqual([]);
  });

  it('fails the import on an unknown column or a quote left open, naming the line', async () => {
    const tenant = await newTenant();
    const unknown = await runImport(
      api,
      tenant,
      'Title,Colour\nA,red\n',
      CSV,
      'errorPolicy=SkipFailedRows',
    );
    expect(unknown.State).toBe('Failed');
    expect(unknown.Error).toMatch(/^line 1: unknown column "Colour"/);
    const open = await runImport(
      api,
      tenant,
      'Title\nA\n"B\nC\n',
      CSV,
      'errorPolicy=SkipFailedRows',
    );
    expect(open.State).toBe('Failed');
    expect(open.Error).toMatch(/line \d+/);
  });
});

describe('POST /private/catalog/imports (route)', () => {
  it('imports an uploaded asset by assetId, the format from its MIME type', async () => {
    const tenant = await newTenant();
    const upload = await api.app.inject({
      method: 'POST',
      url: '/management/storage/asset/raw?fileName=items.csv',
      headers: {
        host: tenant.host,
        authorization: `Bearer ${tenant.token}`,
        'content-type': 'text/csv',
      },
      payload: 'Title\nFrom an asset\n',
    });
    expectStatus(upload, 201);
    const response = await postImport(
      api,
      tenant,
      undefined,
      CSV,
      `assetId=${upload.json<{ Id: number }>().Id}`,
    );
    expectStatus(response, 202);
    expect(response.headers.location).toBe(`${IMPORTS}/${response.json<ImportJobJson>().Id}`);
    const job = await waitForJob<ImportJobJson>(api, tenant, response.headers.location!);
    expect(job).toMatchObject({ State: 'Succeeded', Format: 'csv', RowsWritten: 1 });
  });

  it('answers 400 for an unknown asset, 415 without a file or for JSON, 400 for both or a bad query', async () => {
    const tenant = await newTenant();
    expectError(
      await postImport(api, tenant, undefined, CSV, 'assetId=99999'),
      400,
      'ValidationFailed',
    );
    expectError(await postImport(api, tenant, undefined, CSV), 415, 'MissingImportFile');
    expectStatus(await postImport(api, tenant, '{"Title":"x"}', 'application/json'), 415);
    expectError(
      await postImport(api, tenant, 'Title\nA\n', CSV, 'assetId=1'),
      400,
      'AmbiguousImportSource',
    );
    expectStatus(await postImport(api, tenant, 'Title\nA\n', CSV, 'errorPolicy=Sometimes'), 400);
    expectStatus(await postImport(api, tenant, 'Title\nA\n', CSV, 'format=xml'), 400);
  });

  it('answers 404 for an unknown or another tenant’s import', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const job = await runImport(api, tenant, 'Title\nA\n', CSV);
    expectError(await api.call({ url: `${IMPORTS}/${job.Id}`, tenant: other }), 404, 'NotFound');
    expectError(
      await api.call({ url: `${IMPORTS}/${job.Id}/results`, tenant: other }),
      404,
      'NotFound',
    );
    expectError(
      await api.call({ method: 'POST', url: `${IMPORTS}/${job.Id}/cancel`, tenant: other }),
      404,
      'NotFound',
    );
    expectError(await api.call({ url: `${IMPORTS}/999999`, tenant }), 404, 'NotFound');
  });
});

describe('GET /private/catalog/imports/{id}/results', () => {
  it('answers every Accept that takes its media type, application/x-ndjson included', async () => {
    const tenant = await newTenant();
    const job = await runImport(api, tenant, 'Title\nA\n', CSV);
    for (const accept of [
      'application/x-ndjson',
      'application/x-ndjson, application/json;q=0.5',
      'application/vnd.xomni.api-v4-0',
      'application/json',
      'application/*',
      '*/*',
    ]) {
      const response = await api.call({
        url: `${IMPORTS}/${job.Id}/results`,
        tenant,
        headers: { accept },
      });
      expectStatus(response, 200);
      expect(response.headers['content-type'], accept).toMatch(/^application\/x-ndjson/);
      expect(JSON.parse(response.body.trim())).toMatchObject({ Line: 2, Status: 'Written' });
    }
    for (const accept of ['text/csv', 'application/x-ndjson;q=0', 'text/*']) {
      const response = await api.call({
        url: `${IMPORTS}/${job.Id}/results`,
        tenant,
        headers: { accept },
      });
      expectError(response, 406, 'UnsupportedApiVersion');
    }
  });
});

describe('POST /private/catalog/imports/{id}/cancel', () => {
  it('stops an import between chunks; the chunks committed stay, 409 once ended', async () => {
    const tenant = await newTenant();
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      Title: `Cancel ${i}`,
      SKU: `K${i}`,
    }));
    const response = await postImport(
      api,
      tenant,
      jsonl(records),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expectStatus(response, 202);
    const url = response.headers.location!;
    await waitForJob<ImportJobJson>(api, tenant, url, (job) => job.RowsWritten > 0);
    const cancelled = await api.call({ method: 'POST', url: `${url}/cancel`, tenant });
    expectStatus(cancelled, 200);
    expect(cancelled.json<ImportJobJson>().State).toBe('Cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const job = await waitForJob<ImportJobJson>(api, tenant, url);
    expect(job.State).toBe('Cancelled');
    expect(job.RowsWritten).toBeLessThan(20_000);
    expect(job.RowsWritten % 1000).toBe(0);
    const count = await api.call({ url: `${CATALOG}/items?take=1`, tenant });
    expect(count.json<Page<ItemJson>>().TotalCount).toBe(job.RowsWritten);
    expect(await importResults(api, tenant, job.Id)).toHaveLength(job.RowsWritten);
    expectError(
      await api.call({ method: 'POST', url: `${url}/cancel`, tenant }),
      409,
      'ImportEnded',
    );
  });
});
