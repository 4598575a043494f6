// Items (contract §5.3): create, fetch, full and partial update (Id in the path or the body),
// delete, list, the simple search, server-kept dates, ETag/If-Match, concurrent updates, and
// the referential and transactional rules of item writes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  etagOf,
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
  getItem,
  itemEtag,
  sleep,
  unique,
  type ItemJson,
  type Page,
} from './catalog-fixtures.ts';

let api: TestApi;
let acme: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
});
afterAll(() => api.close());

const ITEM = `${CATALOG}/item`;
const sku = () => `SKU-${randomUUID()}`;
/** A word no other item contains, for the full-text filter. */
const word = () => `w${randomUUID().replaceAll('-', '').slice(0, 12)}`;

const post = (body: unknown) => api.call({ method: 'POST', url: ITEM, tenant: acme, body });
const put = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: `${ITEM}/${id}`, tenant: acme, body, headers });
const patch = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PATCH', url: `${ITEM}/${id}`, tenant: acme, body, headers });
const remove = (id: number | string, headers: Record<string, string> = {}) =>
  api.call({ method: 'DELETE', url: `${ITEM}/${id}`, tenant: acme, headers });
const fetch = (id: number | string) => api.call({ url: `${ITEM}/${id}`, tenant: acme });
const list = async (query = 'take=1000') => {
  const response = await api.call({ url: `${CATALOG}/items?${query}`, tenant: acme });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>();
};
const search = (query: string) =>
  api.call({ url: `${CATALOG}/items/search?${query}`, tenant: acme });
const searchOk = async (query: string) => {
  const response = await search(query);
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>();
};
const totalItems = async () => (await list('take=1')).TotalCount;

/** An item with every scalar field set, plus its references. */
async function fullItemBody() {
  const [category, brand, priceType, type, tag] = await Promise.all([
    createCategory(api, acme),
    createBrand(api, acme),
    createPriceType(api, acme, { PriceTypeSymbol: 'USD' }),
    createAttributeType(api, acme),
    createTag(api, acme),
  ]);
  return {
    refs: { category, brand, priceType, type, tag },
    body: {
      SKU: sku(),
      RFID: 'RFID-1',
      UUID: randomUUID(),
      Name: 'Lamp',
      Title: unique('Desk lamp'),
      Model: 'DL-100',
      ShortDescription: 'A lamp.',
      LongDescription: 'A lamp for the desk.',
      ItemStatusId: 2,
      CategoryId: category.Id,
      BrandId: brand.Id,
      InStock: true,
      PublicWebLink: 'https://example.com/lamp',
      Rating: 4.5,
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 20, DiscountPrice: 15.5 }],
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
      Tags: [{ Id: tag.Id }],
    },
  };
}

describe('POST /private/catalog/item', () => {
  it('creates an item with every field: 201, Location, ETag and the stored item', async () => {
    const { refs, body } = await fullItemBody();
    const response = await post(body);
    expectStatus(response, 201);
    const item = response.json<ItemJson>();
    expect(response.headers.location).toBe(`${ITEM}/${item.Id}`);
    expect(etagOf(response)).toMatch(/^"[^"]+"$/);
    expect(item).toMatchObject({
      SKU: body.SKU,
      RFID: 'RFID-1',
      UUID: body.UUID,
      Name: 'Lamp',
      Title: body.Title,
      Model: 'DL-100',
      ShortDescription: 'A lamp.',
      LongDescription: 'A lamp for the desk.',
      ItemStatusId: 2,
      CategoryId: refs.category.Id,
      BrandId: refs.brand.Id,
      DefaultItemId: null,
      InStock: true,
      PublicWebLink: 'https://example.com/lamp',
      Rating: 4.5,
      LikeCount: 0,
    });
    expect(item.Prices).toEqual([
      {
        PriceId: expect.any(Number) as number,
        ItemId: item.Id,
        NormalPrice: 20,
        DiscountPrice: 15.5,
        PriceTypeId: refs.priceType.Id,
        PriceTypeSymbol: 'USD',
      },
    ]);
    expect(item.DynamicAttributes).toEqual([
      {
        TypeId: refs.type.Id,
        TypeValueId: expect.any(Number) as number,
        Value: 'Red',
        TypeName: refs.type.Description,
      },
    ]);
    expect(item.Tags).toEqual([refs.tag]);
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('needs only Title and fills the defaults', async () => {
    const response = await post({ Title: 'Bare' });
    expectStatus(response, 201);
    expect(response.json<ItemJson>()).toMatchObject({
      SKU: null,
      RFID: null,
      UUID: null,
      Name: null,
      Title: 'Bare',
      Model: null,
      ShortDescription: null,
      LongDescription: null,
      ItemStatusId: 1,
      CategoryId: null,
      BrandId: null,
      DefaultItemId: null,
      InStock: false,
      PublicWebLink: null,
      Rating: null,
      LikeCount: 0,
      Prices: [],
      DynamicAttributes: [],
      Tags: [],
    });
  });

  it('keeps DateAdded and DateModified itself: ISO UTC, equal on create, client values ignored', async () => {
    const before = Date.now();
    const response = await post({
      Title: 'Dated',
      DateAdded: '2001-01-01T00:00:00Z',
      DateModified: '2001-01-01T00:00:00Z',
      LikeCount: 99,
    });
    expectStatus(response, 201);
    const item = response.json<ItemJson>();
    expect(item.DateAdded).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(item.DateModified).toBe(item.DateAdded);
    expect(Date.parse(item.DateAdded)).toBeGreaterThanOrEqual(before - 5_000);
    expect(item.LikeCount).toBe(0);
  });

  it('ignores an Id in the body and assigns its own', async () => {
    const response = await post({ Title: 'With id', Id: 1_000_000 });
    expectStatus(response, 201);
    expect(response.json<ItemJson>().Id).not.toBe(1_000_000);
  });

  it('accepts strings of exactly 256 characters and descriptions of 4000', async () => {
    const response = await post({
      Title: 't'.repeat(256),
      SKU: `S${randomUUID()}`.padEnd(256, 's'),
      ShortDescription: 'd'.repeat(4000),
    });
    expectStatus(response, 201);
    expect(response.json<ItemJson>().Title).toHaveLength(256);
  });

  it.each([
    ['Title missing', {}, 'Title'],
    ['Title empty', { Title: '' }, 'Title'],
    ['Title over 256 characters', { Title: 't'.repeat(257) }, 'Title'],
    ['SKU over 256 characters', { Title: 't', SKU: 's'.repeat(257) }, 'SKU'],
    ['Name over 256 characters', { Title: 't', Name: 'n'.repeat(257) }, 'Name'],
    ['Model empty', { Title: 't', Model: '' }, 'Model'],
    [
      'ShortDescription over 4000',
      { Title: 't', ShortDescription: 'd'.repeat(4001) },
      'ShortDescription',
    ],
    [
      'LongDescription over 4000',
      { Title: 't', LongDescription: 'd'.repeat(4001) },
      'LongDescription',
    ],
    ['ItemStatusId 3', { Title: 't', ItemStatusId: 3 }, 'ItemStatusId'],
    ['Rating above 5', { Title: 't', Rating: 5.5 }, 'Rating'],
    ['Rating negative', { Title: 't', Rating: -1 }, 'Rating'],
    ['CategoryId 0', { Title: 't', CategoryId: 0 }, 'CategoryId'],
    ['BrandId 2147483648', { Title: 't', BrandId: 2_147_483_648 }, 'BrandId'],
    ['SKU empty', { Title: 't', SKU: '' }, 'SKU'],
    ['PublicWebLink over 2048', { Title: 't', PublicWebLink: 'h'.repeat(2049) }, 'PublicWebLink'],
    ['BrandId not an integer', { Title: 't', BrandId: 1.5 }, 'BrandId'],
    ['InStock not a boolean', { Title: 't', InStock: 'maybe' }, 'InStock'],
    ['Prices not an array', { Title: 't', Prices: {} }, 'Prices'],
    // JSON bodies are not coerced: a number is not a text, a text is not an id.
    ['Title a number', { Title: 12 }, 'Title'],
    ['BrandId a numeric text', { Title: 't', BrandId: '3' }, 'BrandId'],
    ['Rating a numeric text', { Title: 't', Rating: '4' }, 'Rating'],
    ['InStock null', { Title: 't', InStock: null }, 'InStock'],
  ])('rejects %s with 400 naming the field', async (_case, body, field) => {
    const count = await totalItems();
    expectFieldError(await post(body), field);
    expect(await totalItems()).toBe(count);
  });

  it('rejects unknown fields with 400 naming them, nested ones by their path', async () => {
    expectUnknownField(await post({ Title: 't', Colour: 'red' }), 'Colour');
    const priceType = await createPriceType(api, acme);
    expectUnknownField(
      await post({ Title: 't', Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 1, Tax: 2 }] }),
      'Prices.0.Tax',
    );
    expectUnknownField(await post({ Title: 't', Tags: [{ Id: 1, Color: 'x' }] }), 'Tags.0.Color');
  });

  it('rejects malformed JSON and a body that is not an object', async () => {
    expectError(await post('{"Title": '), 400, 'MalformedJson');
    expectError(await post([{ Title: 't' }]), 400, 'ValidationFailed');
  });

  it('rejects an unknown CategoryId, BrandId or tag with 400 and stores nothing', async () => {
    const count = await totalItems();
    const code = sku();
    expectFieldError(await post({ Title: 't', SKU: code, CategoryId: 999_999 }), 'CategoryId');
    expectFieldError(await post({ Title: 't', SKU: code, BrandId: 999_999 }), 'BrandId');
    expectFieldError(await post({ Title: 't', SKU: code, Tags: [{ Id: 999_999 }] }), 'Tags.0.Id');
    expect(await totalItems()).toBe(count);
    expect((await searchOk(`sku=${code}`)).TotalCount).toBe(0);
  });

  it('rejects a duplicate SKU with 409', async () => {
    const code = sku();
    await createItem(api, acme, { SKU: code });
    expectError(await post({ Title: 'Again', SKU: code }), 409, 'DuplicateSku');
    expect((await searchOk(`sku=${code}`)).TotalCount).toBe(1);
  });
});

describe('item writes are one transaction', () => {
  it('stores no item when its Prices name an unknown PriceTypeId', async () => {
    const priceType = await createPriceType(api, acme);
    const count = await totalItems();
    const code = sku();
    const response = await post({
      Title: 'Half written?',
      SKU: code,
      Prices: [
        { PriceTypeId: priceType.Id, NormalPrice: 10 },
        { PriceTypeId: 999_999, NormalPrice: 10 },
      ],
    });
    expectFieldError(response, 'Prices.1.PriceTypeId');
    expect(await totalItems()).toBe(count);
    expect((await searchOk(`sku=${code}`)).Results).toEqual([]);
  });

  it('stores no item when a dynamic attribute names an unknown type', async () => {
    const type = await createAttributeType(api, acme);
    const count = await totalItems();
    const code = sku();
    const response = await post({
      Title: 'Half written?',
      SKU: code,
      DynamicAttributes: [
        { TypeId: type.Id, Value: 'Fresh value' },
        { TypeId: 999_999, Value: 'x' },
      ],
    });
    expectFieldError(response, 'DynamicAttributes.1.TypeId');
    expect(await totalItems()).toBe(count);
    expect((await searchOk(`sku=${code}`)).Results).toEqual([]);
    // The value the first entry would have created was rolled back with the item.
    const values = await api.call({
      url: `${CATALOG}/dynamicattributetypes/${type.Id}/dynamicattributes`,
      tenant: acme,
    });
    expect(values.json()).toEqual([]);
  });

  it('changes nothing of an item when an update fails half way', async () => {
    const priceType = await createPriceType(api, acme);
    const item = await createItem(api, acme, {
      Name: 'Before',
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 5 }],
    });
    const etag = await itemEtag(api, acme, item.Id);
    const response = await put(item.Id, {
      Title: 'After',
      Name: 'After',
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 7 }],
      Tags: [{ Id: 999_999 }],
    });
    expectFieldError(response, 'Tags.0.Id');
    const after = await fetch(item.Id);
    expect(after.json()).toEqual(item);
    expect(etagOf(after)).toBe(etag);
  });
});

describe('GET /private/catalog/item/{id}', () => {
  it('returns the item with an ETag', async () => {
    const item = await createItem(api, acme, { Name: 'Fetched' });
    const response = await fetch(item.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual(item);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(etagOf(response)).toMatch(/^"[^"]+"$/);
  });

  it('answers 404 for an unknown item', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
  });

  it.each(['abc', '0', '-1', '1.5', '2147483648'])('answers 400 for the id %s', async (id) => {
    expectFieldError(await fetch(id), 'id');
  });
});

describe('PUT /private/catalog/item/{id}', () => {
  it('replaces the scalar fields; fields left out are cleared', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await put(item.Id, { Title: 'Only a title now' });
    expectStatus(response, 200);
    expect(response.json<ItemJson>()).toMatchObject({
      Id: item.Id,
      Title: 'Only a title now',
      SKU: null,
      RFID: null,
      UUID: null,
      Name: null,
      Model: null,
      ShortDescription: null,
      LongDescription: null,
      ItemStatusId: 1,
      CategoryId: null,
      BrandId: null,
      InStock: false,
      PublicWebLink: null,
      Rating: null,
    });
  });

  it('keeps Prices, DynamicAttributes and Tags when absent and replaces them when sent', async () => {
    const { body, refs } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const kept = await put(item.Id, { Title: 'Kept collections' });
    expect(kept.json<ItemJson>().Prices).toEqual(item.Prices);
    expect(kept.json<ItemJson>().DynamicAttributes).toEqual(item.DynamicAttributes);
    expect(kept.json<ItemJson>().Tags).toEqual(item.Tags);

    const other = await createPriceType(api, acme, { PriceTypeSymbol: 'GBP' });
    const replaced = await put(item.Id, {
      Title: 'Replaced collections',
      Prices: [{ PriceTypeId: other.Id, NormalPrice: 3 }],
      DynamicAttributes: [],
      Tags: [],
    });
    expectStatus(replaced, 200);
    const updated = replaced.json<ItemJson>();
    expect(updated.Prices.map((p) => [p.PriceTypeId, p.NormalPrice])).toEqual([[other.Id, 3]]);
    expect(updated.Prices.some((p) => p.PriceTypeId === refs.priceType.Id)).toBe(false);
    expect(updated.DynamicAttributes).toEqual([]);
    expect(updated.Tags).toEqual([]);
    expect(await getItem(api, acme, item.Id)).toEqual(updated);
  });

  it('keeps DateAdded, advances DateModified and changes the ETag', async () => {
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    await sleep(10);
    const response = await put(item.Id, {
      Title: 'Later',
      DateAdded: '2001-01-01T00:00:00Z',
      DateModified: '2001-01-01T00:00:00Z',
    });
    expectStatus(response, 200);
    const updated = response.json<ItemJson>();
    expect(updated.DateAdded).toBe(item.DateAdded);
    expect(Date.parse(updated.DateModified)).toBeGreaterThan(Date.parse(item.DateModified));
    expect(etagOf(response)).not.toBe(etag);
    expect(await itemEtag(api, acme, item.Id)).toBe(etagOf(response));
  });

  it('accepts an Id in the body equal to the path and refuses a different one', async () => {
    const item = await createItem(api, acme);
    expectStatus(await put(item.Id, { Id: item.Id, Title: 'Same id' }), 200);
    expectError(await put(item.Id, { Id: item.Id + 1, Title: 'Other id' }), 400, 'IdMismatch');
    expect((await getItem(api, acme, item.Id)).Title).toBe('Same id');
  });

  it('answers 404 for an unknown item and 400 for a bad id', async () => {
    expectError(await put(999_999, { Title: 'x' }), 404, 'NotFound');
    expectFieldError(await put('abc', { Title: 'x' }), 'id');
  });

  it('rejects a missing Title, an unknown field and a long string with 400', async () => {
    const item = await createItem(api, acme);
    expectFieldError(await put(item.Id, { Name: 'x' }), 'Title');
    expectUnknownField(await put(item.Id, { Title: 'x', Price: 3 }), 'Price');
    expectFieldError(await put(item.Id, { Title: 'x', Model: 'm'.repeat(257) }), 'Model');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('rejects unknown references with 400 and leaves the item unchanged', async () => {
    const item = await createItem(api, acme);
    expectFieldError(await put(item.Id, { Title: 'x', BrandId: 999_999 }), 'BrandId');
    expectFieldError(await put(item.Id, { Title: 'x', CategoryId: 999_999 }), 'CategoryId');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it("rejects another item's SKU with 409 and leaves the item unchanged", async () => {
    const taken = sku();
    await createItem(api, acme, { SKU: taken });
    const item = await createItem(api, acme, { SKU: sku() });
    expectError(await put(item.Id, { Title: 'x', SKU: taken }), 409, 'DuplicateSku');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });
});

describe('PUT /private/catalog/item (Id in the body)', () => {
  const putBody = (body: unknown, headers: Record<string, string> = {}) =>
    api.call({ method: 'PUT', url: ITEM, tenant: acme, body, headers });

  it('updates the item the body names', async () => {
    const item = await createItem(api, acme, { Name: 'Old' });
    const response = await putBody({ Id: item.Id, Title: 'By body' });
    expectStatus(response, 200);
    expect(response.json<ItemJson>()).toMatchObject({ Id: item.Id, Title: 'By body', Name: null });
    expect(etagOf(response)).toBe(await itemEtag(api, acme, item.Id));
  });

  it('answers 400 IdRequired without an Id and 404 for an unknown one', async () => {
    expectError(await putBody({ Title: 'x' }), 400, 'IdRequired');
    expectError(await putBody({ Id: 999_999, Title: 'x' }), 404, 'NotFound');
    expectFieldError(await putBody({ Id: 0, Title: 'x' }), 'Id');
  });

  it('honours If-Match', async () => {
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    expectStatus(await putBody({ Id: item.Id, Title: 'First' }, { 'if-match': etag }), 200);
    expectError(
      await putBody({ Id: item.Id, Title: 'Second' }, { 'if-match': etag }),
      412,
      'PreconditionFailed',
    );
    expect((await getItem(api, acme, item.Id)).Title).toBe('First');
  });
});

describe('PATCH /private/catalog/item/{id}', () => {
  it('changes only the fields sent', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, { Name: 'Renamed', InStock: false });
    expectStatus(response, 200);
    const patched = response.json<ItemJson>();
    expect(patched).toEqual({
      ...item,
      Name: 'Renamed',
      InStock: false,
      DateModified: patched.DateModified,
    });
    expect(await getItem(api, acme, item.Id)).toEqual(patched);
  });

  it('clears a nullable field sent as null and keeps the others', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, {
      Model: null,
      CategoryId: null,
      BrandId: null,
      Rating: null,
      SKU: null,
      LongDescription: null,
    });
    expectStatus(response, 200);
    const patched = response.json<ItemJson>();
    // Cleared means null: not 0 for a number, not "" for a text.
    expect(patched).toMatchObject({
      Model: null,
      CategoryId: null,
      BrandId: null,
      Rating: null,
      SKU: null,
      LongDescription: null,
    });
    expect(patched).toMatchObject({
      Title: item.Title,
      Name: item.Name,
      ShortDescription: item.ShortDescription,
      InStock: true,
      ItemStatusId: 2,
    });
    expect(patched.Prices).toEqual(item.Prices);
  });

  it('changes nothing but DateModified for an empty body', async () => {
    const item = await createItem(api, acme, { Name: 'Unchanged', SKU: sku() });
    const response = await patch(item.Id, {});
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      ...item,
      DateModified: response.json<ItemJson>().DateModified,
    });
  });

  it('replaces a collection only when it is sent', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, { Tags: [] });
    expect(response.json<ItemJson>().Tags).toEqual([]);
    expect(response.json<ItemJson>().Prices).toEqual(item.Prices);
    expect(response.json<ItemJson>().DynamicAttributes).toEqual(item.DynamicAttributes);
  });

  it('clears every nullable field sent as null', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const nulls = {
      SKU: null,
      RFID: null,
      UUID: null,
      Name: null,
      Model: null,
      ShortDescription: null,
      LongDescription: null,
      CategoryId: null,
      BrandId: null,
      PublicWebLink: null,
      Rating: null,
    };
    const response = await patch(item.Id, nulls);
    expectStatus(response, 200);
    expect(response.json()).toMatchObject(nulls);
    expect(await getItem(api, acme, item.Id)).toMatchObject(nulls);
  });

  it('refuses null for a field that is not nullable', async () => {
    const item = await createItem(api, acme);
    expectFieldError(await patch(item.Id, { Title: null }), 'Title');
    expectFieldError(await patch(item.Id, { InStock: null }), 'InStock');
    expectFieldError(await patch(item.Id, { ItemStatusId: null }), 'ItemStatusId');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('rejects unknown fields, bad values and unknown references with 400', async () => {
    const item = await createItem(api, acme);
    expectUnknownField(await patch(item.Id, { Colour: 'red' }), 'Colour');
    expectFieldError(await patch(item.Id, { Title: 't'.repeat(257) }), 'Title');
    expectFieldError(await patch(item.Id, { BrandId: 999_999 }), 'BrandId');
    expectError(await patch(item.Id, { Id: item.Id + 1 }), 400, 'IdMismatch');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('answers 404 for an unknown item', async () => {
    expectError(await patch(999_999, { Name: 'x' }), 404, 'NotFound');
  });

  it('keeps DateAdded and advances DateModified', async () => {
    const item = await createItem(api, acme);
    await sleep(10);
    const patched = (await patch(item.Id, { Name: 'Later' })).json<ItemJson>();
    expect(patched.DateAdded).toBe(item.DateAdded);
    expect(Date.parse(patched.DateModified)).toBeGreaterThan(Date.parse(item.DateModified));
  });
});

describe('PATCH /private/catalog/item (Id in the body)', () => {
  const patchBody = (body: unknown) => api.call({ method: 'PATCH', url: ITEM, tenant: acme, body });

  it('changes only the fields sent of the item the body names', async () => {
    const item = await createItem(api, acme, { Name: 'Kept', Model: 'M1' });
    const response = await patchBody({ Id: item.Id, Model: 'M2' });
    expectStatus(response, 200);
    expect(response.json<ItemJson>()).toMatchObject({
      Title: item.Title,
      Name: 'Kept',
      Model: 'M2',
    });
  });

  it('answers 400 IdRequired without an Id and 404 for an unknown one', async () => {
    expectError(await patchBody({ Name: 'x' }), 400, 'IdRequired');
    expectError(await patchBody({ Id: 999_999, Name: 'x' }), 404, 'NotFound');
  });
});

describe('If-Match on item writes', () => {
  it('accepts the current ETag, its weak form and *', async () => {
    const item = await createItem(api, acme);
    let etag = await itemEtag(api, acme, item.Id);
    let response = await put(item.Id, { Title: 'One' }, { 'if-match': etag });
    expectStatus(response, 200);
    etag = etagOf(response);
    response = await patch(item.Id, { Name: 'Two' }, { 'if-match': `W/${etag}` });
    expectStatus(response, 200);
    response = await patch(item.Id, { Name: 'Three' }, { 'if-match': '*' });
    expectStatus(response, 200);
    response = await patch(
      item.Id,
      { Name: 'Four' },
      { 'if-match': `"nope", ${etagOf(response)}` },
    );
    expectStatus(response, 200);
  });

  it('answers 412 to a PUT with a stale ETag and changes nothing', async () => {
    const item = await createItem(api, acme, { Name: 'Original' });
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await patch(item.Id, { Name: 'Changed' }), 200);
    const response = await put(item.Id, { Title: 'Stale write' }, { 'if-match': stale });
    expectError(response, 412, 'PreconditionFailed');
    expect(await getItem(api, acme, item.Id)).toMatchObject({
      Title: item.Title,
      Name: 'Changed',
    });
  });

  it('answers 412 to a PATCH with a stale ETag', async () => {
    const item = await createItem(api, acme);
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await put(item.Id, { Title: 'Newer' }), 200);
    expectError(
      await patch(item.Id, { Name: 'x' }, { 'if-match': stale }),
      412,
      'PreconditionFailed',
    );
    expect((await getItem(api, acme, item.Id)).Name).toBeNull();
  });

  it('answers 412 to a DELETE with a stale ETag and keeps the item', async () => {
    const item = await createItem(api, acme);
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await patch(item.Id, { Name: 'Touched' }), 200);
    expectError(await remove(item.Id, { 'if-match': stale }), 412, 'PreconditionFailed');
    expectStatus(await fetch(item.Id), 200);
    expectStatus(await remove(item.Id, { 'if-match': await itemEtag(api, acme, item.Id) }), 204);
    expectError(await fetch(item.Id), 404, 'NotFound');
  });

  it('answers 412 for an ETag that never was the item’s', async () => {
    const item = await createItem(api, acme);
    expectError(await put(item.Id, { Title: 'x' }, { 'if-match': '"bogus"' }), 412);
  });

  it('counts a change of prices or dynamic attributes as a change of the item', async () => {
    const priceType = await createPriceType(api, acme);
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    const prices = await api.call({
      method: 'PUT',
      url: `${CATALOG}/items/${item.Id}/prices`,
      tenant: acme,
      body: [{ PriceTypeId: priceType.Id, NormalPrice: 1 }],
    });
    expectStatus(prices, 200);
    expectError(await put(item.Id, { Title: 'x' }, { 'if-match': etag }), 412);
  });

  it('answers 404 (not 412) for an unknown item with If-Match', async () => {
    expectError(await put(999_999, { Title: 'x' }, { 'if-match': '"v1"' }), 404, 'NotFound');
  });
});

describe('concurrent updates of one item', () => {
  it.each([1, 2, 3])(
    'lets exactly one of two PUTs with the same If-Match win, round %i',
    async () => {
      const item = await createItem(api, acme, { Name: 'Shared' });
      const etag = await itemEtag(api, acme, item.Id);
      const [a, b] = await Promise.all([
        put(item.Id, { Title: 'Client A', Name: 'A' }, { 'if-match': etag }),
        put(item.Id, { Title: 'Client B', Name: 'B' }, { 'if-match': etag }),
      ]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses, `${a.body} / ${b.body}`).toEqual([200, 412]);
      const winner = a.statusCode === 200 ? a : b;
      const loser = a.statusCode === 200 ? b : a;
      expectError(loser, 412, 'PreconditionFailed');
      const final = await fetch(item.Id);
      expect(final.json<ItemJson>()).toMatchObject({
        Title: winner.json<ItemJson>().Title,
        Name: winner.json<ItemJson>().Name,
      });
      expect(etagOf(final)).toBe(etagOf(winner));
    },
  );

  it('lets exactly one of two PATCHes with the same If-Match win', async () => {
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    const responses = await Promise.all(
      ['A', 'B', 'C'].map((name) => patch(item.Id, { Name: name }, { 'if-match': etag })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
    const winner = responses.find((r) => r.statusCode === 200)!;
    expect((await getItem(api, acme, item.Id)).Name).toBe(winner.json<ItemJson>().Name);
  });

  it('applies both of two concurrent PATCHes of different fields without If-Match', async () => {
    const item = await createItem(api, acme);
    const [a, b] = await Promise.all([
      patch(item.Id, { Name: 'From A' }),
      patch(item.Id, { Model: 'From B' }),
    ]);
    expectStatus(a, 200);
    expectStatus(b, 200);
    expect(await getItem(api, acme, item.Id)).toMatchObject({ Name: 'From A', Model: 'From B' });
  });
});

describe('DELETE /private/catalog/item/{id}', () => {
  it('deletes the item: 204, then 404', async () => {
    const item = await createItem(api, acme);
    const count = await totalItems();
    const response = await remove(item.Id);
    expectStatus(response, 204);
    expect(response.body).toBe('');
    expectError(await fetch(item.Id), 404, 'NotFound');
    expectError(await remove(item.Id), 404, 'NotFound');
    expect(await totalItems()).toBe(count - 1);
  });

  it('removes its prices, attributes and tag mappings but not the tag or types', async () => {
    const { body, refs } = await fullItemBody();
    const item = await createItem(api, acme, body);
    expectStatus(await remove(item.Id), 204);
    const mappings = await api.call({
      url: `${CATALOG}/itemtagmappings?tagId=${refs.tag.Id}`,
      tenant: acme,
    });
    expect(mappings.json()).toEqual({ Results: [], TotalCount: 0 });
    expectStatus(await api.call({ url: `${CATALOG}/tag/${refs.tag.Id}`, tenant: acme }), 200);
    // Nothing refers to the tag, the type or the price type any more: they can go.
    for (const url of [
      `${CATALOG}/tag/${refs.tag.Id}`,
      `${CATALOG}/dynamicattributetypes/${refs.type.Id}`,
      `${CATALOG}/pricetype/${refs.priceType.Id}`,
      `${CATALOG}/brand/${refs.brand.Id}`,
      `${CATALOG}/category/${refs.category.Id}`,
    ]) {
      expectStatus(await api.call({ method: 'DELETE', url, tenant: acme }), 204);
    }
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('x'), 'id');
  });
});

describe('GET /private/catalog/items', () => {
  it('pages by skip and take in Id order with TotalCount of all items', async () => {
    for (let i = 0; i < 3; i++) await createItem(api, acme);
    const all = await list();
    expect(all.TotalCount).toBe(all.Results.length);
    const ids = all.Results.map((i) => i.Id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const page = await list('skip=1&take=2');
    expect(page.TotalCount).toBe(all.TotalCount);
    expect(page.Results.map((i) => i.Id)).toEqual(ids.slice(1, 3));
    expect(page.Results[0]).toEqual(all.Results[1]);
  });

  it('defaults to skip 0 and take 20', async () => {
    while ((await totalItems()) < 21) await createItem(api, acme);
    const page = await list('');
    expect(page.Results).toHaveLength(20);
    expect(page.Results[0]!.Id).toBe((await list('take=1')).Results[0]!.Id);
  });

  it('answers an empty page with 200 and Results []', async () => {
    const page = await list('skip=100000&take=5');
    expect(page.Results).toEqual([]);
    expect(page.TotalCount).toBeGreaterThan(0);
  });

  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
    ['take=abc', 'take'],
  ])('rejects %s with 400', async (query, field) => {
    expectFieldError(await api.call({ url: `${CATALOG}/items?${query}`, tenant: acme }), field);
  });
});

describe('GET /private/catalog/items/search', () => {
  let fixture: {
    shoes: number;
    boots: number;
    shoesChild: number;
    alpha: number;
    beta: number;
    tag: string;
    a: ItemJson;
    b: ItemJson;
    c: ItemJson;
    d: ItemJson;
  };

  beforeAll(async () => {
    const shoes = await createCategory(api, acme);
    const boots = await createCategory(api, acme);
    const shoesChild = await createCategory(api, acme, { ParentCategoryId: shoes.Id });
    const alpha = await createBrand(api, acme);
    const beta = await createBrand(api, acme);
    const tag = word();
    const a = await createItem(api, acme, {
      Title: `Trail ${tag} runner`,
      SKU: sku(),
      UUID: randomUUID(),
      Model: `XR${tag}`,
      CategoryId: shoes.Id,
      BrandId: alpha.Id,
    });
    const b = await createItem(api, acme, {
      Title: `Road ${tag}`,
      CategoryId: shoes.Id,
      BrandId: beta.Id,
      ShortDescription: `Light ${tag}q`,
    });
    const c = await createItem(api, acme, {
      Title: 'Winter boot',
      Name: `${tag} boot`,
      CategoryId: boots.Id,
      BrandId: alpha.Id,
    });
    const d = await createItem(api, acme, {
      Title: `Kids ${tag}`,
      CategoryId: shoesChild.Id,
      BrandId: alpha.Id,
    });
    const grouped = await api.call({
      method: 'POST',
      url: `${CATALOG}/items/${a.Id}/group`,
      tenant: acme,
      body: [c.Id],
    });
    expectStatus(grouped, 200);
    fixture = {
      shoes: shoes.Id,
      boots: boots.Id,
      shoesChild: shoesChild.Id,
      alpha: alpha.Id,
      beta: beta.Id,
      tag,
      a,
      b,
      c,
      d,
    };
  });

  const ids = (page: Page<ItemJson>) => page.Results.map((i) => i.Id);

  it('filters by categoryId (that category only, not its subcategories)', async () => {
    const page = await searchOk(`categoryId=${fixture.shoes}`);
    expect(ids(page)).toEqual([fixture.a.Id, fixture.b.Id]);
    expect(page.TotalCount).toBe(2);
  });

  it('filters by brandId, and by several filters together', async () => {
    expect(ids(await searchOk(`brandId=${fixture.alpha}`))).toEqual([
      fixture.a.Id,
      fixture.c.Id,
      fixture.d.Id,
    ]);
    expect(ids(await searchOk(`brandId=${fixture.alpha}&categoryId=${fixture.boots}`))).toEqual([
      fixture.c.Id,
    ]);
  });

  it('filters by exact sku and uuid', async () => {
    expect(ids(await searchOk(`sku=${fixture.a.SKU!}`))).toEqual([fixture.a.Id]);
    expect(ids(await searchOk(`uuid=${fixture.a.UUID!}`))).toEqual([fixture.a.Id]);
    expect((await searchOk(`sku=${fixture.a.SKU!.slice(0, 10)}`)).Results).toEqual([]);
  });

  it('filters by a comma-separated itemIds list', async () => {
    const page = await searchOk(
      `itemIds=${encodeURIComponent(` ${fixture.d.Id} , ${fixture.b.Id},999999`)}`,
    );
    expect(ids(page)).toEqual([fixture.b.Id, fixture.d.Id]);
  });

  it('filters by defaultItemId: the default item and its variants', async () => {
    expect(ids(await searchOk(`defaultItemId=${fixture.a.Id}`))).toEqual([
      fixture.a.Id,
      fixture.c.Id,
    ]);
  });

  it('leaves variants out with includeOnlyMasterItems', async () => {
    const all = `itemIds=${fixture.a.Id},${fixture.b.Id},${fixture.c.Id}`;
    expect(ids(await searchOk(`${all}&includeOnlyMasterItems=true`))).toEqual([
      fixture.a.Id,
      fixture.b.Id,
    ]);
    expect(ids(await searchOk(`${all}&includeOnlyMasterItems=false`))).toHaveLength(3);
  });

  it('matches q as word prefixes over Title, Name, SKU, Model and descriptions', async () => {
    const page = await searchOk(`q=${fixture.tag}`);
    // a (Title), b (Title, ShortDescription), c (Name), d (Title).
    expect(ids(page)).toEqual([fixture.a.Id, fixture.b.Id, fixture.c.Id, fixture.d.Id]);
    expect(ids(await searchOk(`q=${fixture.tag.toUpperCase().slice(0, 9)}`))).toHaveLength(4);
    expect(ids(await searchOk(`q=${encodeURIComponent(`trail ${fixture.tag}`)}`))).toEqual([
      fixture.a.Id,
    ]);
    expect(ids(await searchOk(`q=xr${fixture.tag}`))).toEqual([fixture.a.Id]);
    expect(ids(await searchOk(`q=${fixture.tag}q`))).toEqual([fixture.b.Id]);
  });

  it('pages the filtered set and counts it before paging', async () => {
    const page = await searchOk(`brandId=${fixture.alpha}&skip=1&take=1`);
    expect(ids(page)).toEqual([fixture.c.Id]);
    expect(page.TotalCount).toBe(3);
    const beyond = await searchOk(`brandId=${fixture.alpha}&skip=10`);
    expect(beyond).toEqual({ Results: [], TotalCount: 3 });
  });

  it('answers 200 with no results when nothing matches', async () => {
    expect(await searchOk(`q=${word()}`)).toEqual({ Results: [], TotalCount: 0 });
    expect(await searchOk('categoryId=999999')).toEqual({ Results: [], TotalCount: 0 });
  });

  it.each([
    ['itemIds=abc', 'itemIds'],
    ['itemIds=1,,2', 'itemIds'],
    ['itemIds=99999999999', 'itemIds'],
    ['itemIds=0', 'itemIds'],
    ['categoryId=0', 'categoryId'],
    ['brandId=x', 'brandId'],
    ['defaultItemId=-3', 'defaultItemId'],
    ['includeOnlyMasterItems=perhaps', 'includeOnlyMasterItems'],
    ['sku=', 'sku'],
    [`q=${'q'.repeat(257)}`, 'q'],
    ['take=0', 'take'],
    ['skip=-1', 'skip'],
  ])('rejects %s with 400', async (query, field) => {
    expectFieldError(await search(query), field);
  });
});
