// An item's prices and dynamic attributes (contract §5.3): PUT|GET /items/{id}/prices and
// /items/{id}/dynamicattributes, and the same collections sent in item bodies.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createItem,
  createPriceType,
  getItem,
  itemEtag,
  type DynamicAttributeJson,
  type ItemJson,
  type PriceJson,
  type PriceTypeJson,
} from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let eur: PriceTypeJson;
let usd: PriceTypeJson;

beforeAll(async () => {
  eur = await createPriceType(api, acme, { Description: 'Euro', PriceTypeSymbol: 'EUR' });
  usd = await createPriceType(api, acme, { Description: 'US dollar', PriceTypeSymbol: 'USD' });
});

const putPrices = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${CATALOG}/items/${id}/prices`, tenant: acme, body });
const getPrices = (id: number | string) =>
  api.call({ url: `${CATALOG}/items/${id}/prices`, tenant: acme });
const putAttributes = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${CATALOG}/items/${id}/dynamicattributes`, tenant: acme, body });
const getAttributes = (id: number | string) =>
  api.call({ url: `${CATALOG}/items/${id}/dynamicattributes`, tenant: acme });
const shape = (prices: PriceJson[]) =>
  prices.map((p) => [p.PriceTypeId, p.NormalPrice, p.DiscountPrice]);

describe('PUT /private/catalog/items/{id}/prices', () => {
  it("replaces the item's prices and answers them, one per type, ordered by type", async () => {
    const item = await createItem(api, acme);
    const response = await putPrices(item.Id, [
      { PriceTypeId: usd.Id, NormalPrice: 12.5, DiscountPrice: 10 },
      { PriceTypeId: eur.Id, NormalPrice: 11 },
    ]);
    expectStatus(response, 200);
    const prices = response.json<PriceJson[]>();
    expect(prices).toEqual([
      {
        PriceId: expect.any(Number) as number,
        ItemId: item.Id,
        NormalPrice: 11,
        DiscountPrice: null,
        PriceTypeId: eur.Id,
        PriceTypeSymbol: 'EUR',
      },
      {
        PriceId: expect.any(Number) as number,
        ItemId: item.Id,
        NormalPrice: 12.5,
        DiscountPrice: 10,
        PriceTypeId: usd.Id,
        PriceTypeSymbol: 'USD',
      },
    ]);
    expect((await getItem(api, acme, item.Id)).Prices).toEqual(prices);
    expect((await getPrices(item.Id)).json()).toEqual(prices);
  });

  it('drops the prices not sent again and clears them all with []', async () => {
    const item = await createItem(api, acme);
    expectStatus(
      await putPrices(item.Id, [
        { PriceTypeId: eur.Id, NormalPrice: 1 },
        { PriceTypeId: usd.Id, NormalPrice: 2 },
      ]),
      200,
    );
    const replaced = await putPrices(item.Id, [{ PriceTypeId: usd.Id, NormalPrice: 3 }]);
    expect(shape(replaced.json())).toEqual([[usd.Id, 3, null]]);
    const cleared = await putPrices(item.Id, []);
    expectStatus(cleared, 200);
    expect(cleared.json()).toEqual([]);
    expect((await getItem(api, acme, item.Id)).Prices).toEqual([]);
  });

  it('accepts CurrencyId as a synonym of PriceTypeId and ignores the read-only fields', async () => {
    const item = await createItem(api, acme);
    const response = await putPrices(item.Id, [
      { CurrencyId: eur.Id, CurrencySymbol: 'XXX', NormalPrice: 5, PriceId: 77 },
      {
        PriceTypeId: usd.Id,
        CurrencyId: usd.Id,
        PriceTypeSymbol: 'YYY',
        NormalPrice: 6,
        ItemId: item.Id,
      },
    ]);
    expectStatus(response, 200);
    const prices = response.json<PriceJson[]>();
    expect(prices.map((p) => [p.PriceTypeId, p.PriceTypeSymbol, p.NormalPrice])).toEqual([
      [eur.Id, 'EUR', 5],
      [usd.Id, 'USD', 6],
    ]);
    expect(prices[0]!.PriceId).not.toBe(77);
  });

  it('accepts DiscountPrice equal to NormalPrice, and null as no discount (not 0)', async () => {
    const item = await createItem(api, acme);
    const response = await putPrices(item.Id, [
      { PriceTypeId: eur.Id, NormalPrice: 9.99, DiscountPrice: 9.99 },
      { PriceTypeId: usd.Id, NormalPrice: 5, DiscountPrice: null },
    ]);
    expect(shape(response.json())).toEqual([
      [eur.Id, 9.99, 9.99],
      [usd.Id, 5, null],
    ]);
  });

  it('keeps the largest amount the column holds and refuses a larger one with 400', async () => {
    const item = await createItem(api, acme);
    const ok = await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 9_999_999_999.99 }]);
    expectStatus(ok, 200);
    expect(ok.json<PriceJson[]>()[0]!.NormalPrice).toBe(9_999_999_999.99);
    expectFieldError(
      await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 1e10 }]),
      '0.NormalPrice',
    );
  });

  it('refuses a DiscountPrice above NormalPrice with 400 naming it', async () => {
    const item = await createItem(api, acme);
    expectFieldError(
      await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 5, DiscountPrice: 5.01 }]),
      'Prices.0.DiscountPrice',
    );
  });

  it('refuses two prices of one type, also when one names it by CurrencyId', async () => {
    const item = await createItem(api, acme);
    expectFieldError(
      await putPrices(item.Id, [
        { PriceTypeId: eur.Id, NormalPrice: 1 },
        { PriceTypeId: eur.Id, NormalPrice: 2 },
      ]),
      'Prices.1.PriceTypeId',
    );
    expectFieldError(
      await putPrices(item.Id, [
        { PriceTypeId: eur.Id, NormalPrice: 1 },
        { CurrencyId: eur.Id, NormalPrice: 2 },
      ]),
      'Prices.1.PriceTypeId',
    );
  });

  it('refuses a price without a type, or with PriceTypeId and CurrencyId that differ', async () => {
    const item = await createItem(api, acme);
    expectFieldError(await putPrices(item.Id, [{ NormalPrice: 1 }]), 'Prices.0.PriceTypeId');
    expectFieldError(
      await putPrices(item.Id, [{ PriceTypeId: eur.Id, CurrencyId: usd.Id, NormalPrice: 1 }]),
      'Prices.0.CurrencyId',
    );
  });

  it('refuses an unknown price type with 400 and keeps the old prices', async () => {
    const item = await createItem(api, acme, { Prices: [{ PriceTypeId: eur.Id, NormalPrice: 4 }] });
    expectFieldError(
      await putPrices(item.Id, [
        { PriceTypeId: usd.Id, NormalPrice: 1 },
        { PriceTypeId: 999_999, NormalPrice: 1 },
      ]),
      'Prices.1.PriceTypeId',
    );
    expectFieldError(
      await putPrices(item.Id, [{ CurrencyId: 999_999, NormalPrice: 1 }]),
      'Prices.0.PriceTypeId',
    );
    expect(shape((await getItem(api, acme, item.Id)).Prices)).toEqual([[eur.Id, 4, null]]);
  });

  it("refuses an ItemId other than the item's", async () => {
    const item = await createItem(api, acme);
    expectFieldError(
      await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 1, ItemId: item.Id + 1 }]),
      'Prices.0.ItemId',
    );
  });

  it.each([
    ['a negative NormalPrice', [{ PriceTypeId: 1, NormalPrice: -1 }], '0.NormalPrice'],
    ['a missing NormalPrice', [{ PriceTypeId: 1 }], '0.NormalPrice'],
    [
      'a negative DiscountPrice',
      [{ PriceTypeId: 1, NormalPrice: 1, DiscountPrice: -1 }],
      '0.DiscountPrice',
    ],
    ['a PriceTypeId of 0', [{ PriceTypeId: 0, NormalPrice: 1 }], '0.PriceTypeId'],
    ['a text NormalPrice', [{ PriceTypeId: 1, NormalPrice: 'cheap' }], '0.NormalPrice'],
    ['an object instead of a list', { PriceTypeId: 1, NormalPrice: 1 }, '(body)'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const item = await createItem(api, acme);
    expectFieldError(await putPrices(item.Id, body), field);
  });

  it('refuses more than 1000 prices (the batch limit) with 400', async () => {
    const item = await createItem(api, acme);
    const many = Array.from({ length: 1001 }, () => ({ PriceTypeId: eur.Id, NormalPrice: 1 }));
    expectFieldError(await putPrices(item.Id, many), '(body)');
  });

  it('refuses unknown fields with 400 naming them', async () => {
    const item = await createItem(api, acme);
    expectUnknownField(
      await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 1, Vat: 0.2 }]),
      '0.Vat',
    );
  });

  it('answers 404 for an unknown item and 400 for a bad id', async () => {
    expectError(await putPrices(999_999, []), 404, 'NotFound');
    expectFieldError(await putPrices('x', []), 'id');
  });

  it("changes the item's ETag and DateModified", async () => {
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    expectStatus(await putPrices(item.Id, [{ PriceTypeId: eur.Id, NormalPrice: 1 }]), 200);
    expect(await itemEtag(api, acme, item.Id)).not.toBe(etag);
  });
});

describe('GET /private/catalog/items/{id}/prices', () => {
  it('answers [] for an item without prices', async () => {
    const item = await createItem(api, acme);
    const response = await getPrices(item.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual([]);
  });

  it('answers 404 for an unknown item and 400 for a bad id', async () => {
    expectError(await getPrices(999_999), 404, 'NotFound');
    expectFieldError(await getPrices('-5'), 'id');
  });
});

describe('prices in item bodies', () => {
  it('takes Prices (with CurrencyId) on create and replaces them on PATCH', async () => {
    const item = await createItem(api, acme, {
      Prices: [{ CurrencyId: usd.Id, NormalPrice: 30, DiscountPrice: 25 }],
    });
    expect(shape(item.Prices)).toEqual([[usd.Id, 30, 25]]);
    const response = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${item.Id}`,
      tenant: acme,
      body: { Prices: [{ PriceTypeId: eur.Id, NormalPrice: 28 }] },
    });
    expect(shape(response.json<ItemJson>().Prices)).toEqual([[eur.Id, 28, null]]);
  });

  it('names the bad price by its place in Prices', async () => {
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/item`,
      tenant: acme,
      body: {
        Title: 'Priced',
        Prices: [
          { PriceTypeId: eur.Id, NormalPrice: 1 },
          { PriceTypeId: usd.Id, NormalPrice: 1, DiscountPrice: 2 },
        ],
      },
    });
    expectFieldError(response, 'Prices.1.DiscountPrice');
  });
});

describe('PUT /private/catalog/items/{id}/dynamicattributes', () => {
  it('sets attributes by value text, creating the values as needed', async () => {
    const colour = await createAttributeType(api, acme);
    const size = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    const response = await putAttributes(item.Id, [
      { TypeId: size.Id, Value: 'XL' },
      { TypeId: colour.Id, Value: 'Green', TypeName: 'ignored' },
    ]);
    expectStatus(response, 200);
    const attributes = response.json<DynamicAttributeJson[]>();
    expect(attributes).toEqual([
      {
        TypeId: colour.Id,
        TypeValueId: expect.any(Number) as number,
        Value: 'Green',
        TypeName: colour.Description,
      },
      {
        TypeId: size.Id,
        TypeValueId: expect.any(Number) as number,
        Value: 'XL',
        TypeName: size.Description,
      },
    ]);
    expect((await getItem(api, acme, item.Id)).DynamicAttributes).toEqual(attributes);
    expect((await getAttributes(item.Id)).json()).toEqual(attributes);
  });

  it('reuses the value of a type another item already has, and makes a new one otherwise', async () => {
    const colour = await createAttributeType(api, acme);
    const [a, b] = [await createItem(api, acme), await createItem(api, acme)];
    const [red] = (await putAttributes(a.Id, [{ TypeId: colour.Id, Value: 'Red' }])).json<
      DynamicAttributeJson[]
    >();
    const [again] = (await putAttributes(b.Id, [{ TypeId: colour.Id, Value: 'Red' }])).json<
      DynamicAttributeJson[]
    >();
    expect(again!.TypeValueId).toBe(red!.TypeValueId);
    const [blue] = (await putAttributes(b.Id, [{ TypeId: colour.Id, Value: 'Blue' }])).json<
      DynamicAttributeJson[]
    >();
    expect(blue!.TypeValueId).not.toBe(red!.TypeValueId);
  });

  it('sets an attribute by TypeValueId', async () => {
    const colour = await createAttributeType(api, acme);
    const [a, b] = [await createItem(api, acme), await createItem(api, acme)];
    const [red] = (await putAttributes(a.Id, [{ TypeId: colour.Id, Value: 'Red' }])).json<
      DynamicAttributeJson[]
    >();
    const response = await putAttributes(b.Id, [
      { TypeId: colour.Id, TypeValueId: red!.TypeValueId, Value: null },
    ]);
    expectStatus(response, 200);
    expect(response.json()).toEqual([red]);
  });

  it('replaces the whole set and clears it with []', async () => {
    const colour = await createAttributeType(api, acme);
    const size = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      DynamicAttributes: [
        { TypeId: colour.Id, Value: 'Red' },
        { TypeId: size.Id, Value: 'S' },
      ],
    });
    expect(item.DynamicAttributes).toHaveLength(2);
    const replaced = await putAttributes(item.Id, [{ TypeId: size.Id, Value: 'M' }]);
    expect(replaced.json<DynamicAttributeJson[]>().map((a) => [a.TypeId, a.Value])).toEqual([
      [size.Id, 'M'],
    ]);
    const cleared = await putAttributes(item.Id, []);
    expect(cleared.json()).toEqual([]);
    expect((await getItem(api, acme, item.Id)).DynamicAttributes).toEqual([]);
  });

  it('refuses an unknown type with 400 and keeps the old attributes', async () => {
    const colour = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      DynamicAttributes: [{ TypeId: colour.Id, Value: 'Red' }],
    });
    expectFieldError(
      await putAttributes(item.Id, [
        { TypeId: colour.Id, Value: 'Blue' },
        { TypeId: 999_999, Value: 'x' },
      ]),
      'DynamicAttributes.1.TypeId',
    );
    expect((await getItem(api, acme, item.Id)).DynamicAttributes).toEqual(item.DynamicAttributes);
  });

  it('refuses a TypeValueId of another type or unknown with 400', async () => {
    const colour = await createAttributeType(api, acme);
    const size = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    const [red] = (await putAttributes(item.Id, [{ TypeId: colour.Id, Value: 'Red' }])).json<
      DynamicAttributeJson[]
    >();
    expectFieldError(
      await putAttributes(item.Id, [{ TypeId: size.Id, TypeValueId: red!.TypeValueId }]),
      'DynamicAttributes.0.TypeValueId',
    );
    expectFieldError(
      await putAttributes(item.Id, [{ TypeId: size.Id, TypeValueId: 999_999 }]),
      'DynamicAttributes.0.TypeValueId',
    );
  });

  it('refuses an entry without Value or TypeValueId, and one type given twice', async () => {
    const colour = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    expectFieldError(
      await putAttributes(item.Id, [{ TypeId: colour.Id }]),
      'DynamicAttributes.0.Value',
    );
    expectFieldError(
      await putAttributes(item.Id, [{ TypeId: colour.Id, Value: null, TypeValueId: null }]),
      'DynamicAttributes.0.Value',
    );
    expectFieldError(
      await putAttributes(item.Id, [
        { TypeId: colour.Id, Value: 'a' },
        { TypeId: colour.Id, Value: 'b' },
      ]),
      'DynamicAttributes.1.TypeId',
    );
  });

  it.each([
    ['an empty Value', [{ TypeId: 1, Value: '' }], '0.Value'],
    ['a Value over 256 characters', [{ TypeId: 1, Value: 'v'.repeat(257) }], '0.Value'],
    ['a TypeId of 0', [{ TypeId: 0, Value: 'v' }], '0.TypeId'],
    ['a missing TypeId', [{ Value: 'v' }], '0.TypeId'],
    ['a TypeValueId of 0', [{ TypeId: 1, TypeValueId: 0 }], '0.TypeValueId'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const item = await createItem(api, acme);
    expectFieldError(await putAttributes(item.Id, body), field);
  });

  it('refuses unknown fields with 400 naming them', async () => {
    const item = await createItem(api, acme);
    expectUnknownField(
      await putAttributes(item.Id, [{ TypeId: 1, Value: 'v', Unit: 'cm' }]),
      '0.Unit',
    );
  });

  it('answers 404 for an unknown item', async () => {
    expectError(await putAttributes(999_999, []), 404, 'NotFound');
  });

  it("changes the item's ETag", async () => {
    const colour = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    expectStatus(await putAttributes(item.Id, [{ TypeId: colour.Id, Value: 'x' }]), 200);
    expect(await itemEtag(api, acme, item.Id)).not.toBe(etag);
  });
});

describe('GET /private/catalog/items/{id}/dynamicattributes', () => {
  it('answers [] for an item without attributes', async () => {
    const item = await createItem(api, acme);
    const response = await getAttributes(item.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual([]);
  });

  it('answers 404 for an unknown item and 400 for a bad id', async () => {
    expectError(await getAttributes(999_999), 404, 'NotFound');
    expectFieldError(await getAttributes('1.5'), 'id');
  });
});
