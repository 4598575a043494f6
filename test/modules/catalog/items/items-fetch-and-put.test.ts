// Items (contract §5.3): fetch and full update (Id in the path or the body).
import { describe, expect, it } from 'vitest';
import {
  createItem,
  createPriceType,
  getItem,
  itemEtag,
  sleep,
  type ItemJson,
} from '../catalog-fixtures.ts';
import {
  etagOf,
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';
import { useItemsApi, api, acme, ITEM, sku, put, fetch, fullItemBody } from './items-fixtures.ts';

useItemsApi();

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

  it.each(['abc', '0', '-1', '1.5', '9007199254740992'])(
    'answers 400 for the id %s',
    async (id) => {
      expectFieldError(await fetch(id), 'id');
    },
  );

  // Ids are bigint: past 32 bits an unknown id is looked up like any other.
  it.each([2 ** 31, Number.MAX_SAFE_INTEGER])('answers 404 for the unknown id %s', async (id) => {
    expectError(await fetch(id), 404, 'NotFound');
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

    const other = await createPriceType(api, acme);
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
