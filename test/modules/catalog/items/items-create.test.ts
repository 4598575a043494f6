// Items (contract §5.3): create, server-kept dates, and the referential and transactional rules
// of item writes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CATALOG,
  createAttributeType,
  createItem,
  createPriceType,
  getItem,
  itemEtag,
  type ItemJson,
} from '../catalog-fixtures.ts';
import {
  etagOf,
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';
import {
  useItemsApi,
  api,
  acme,
  ITEM,
  sku,
  post,
  put,
  fetch,
  searchOk,
  totalItems,
  fullItemBody,
} from './items-fixtures.ts';

useItemsApi();

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
        PriceTypeSymbol: refs.priceType.PriceTypeSymbol,
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
    // Ids are bigint, up to 2^53 - 1: what a JSON number holds exactly.
    ['BrandId 2^53', { Title: 't', BrandId: 2 ** 53 }, 'BrandId'],
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
