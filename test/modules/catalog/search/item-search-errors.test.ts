// POST /private/catalog/items (contract §5.3): bad input is a 400 in the contract's error body,
// and one tenant's search never sees nor refers to another tenant's catalog.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  privateToken,
} from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectUnknownField,
} from '../../../support/expectations.ts';
import { idsOf, searchItems, searchOk } from './search-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

describe('POST /private/catalog/items: bad input', () => {
  it.each([
    [{ Take: 0 }, 'Take'],
    [{ Take: 1001 }, 'Take'],
    [{ Take: 2.5 }, 'Take'],
    [{ Skip: -1 }, 'Skip'],
    [{ Query: 'q'.repeat(201) }, 'Query'],
    [{ Query: 42 }, 'Query'],
    [{ OrderedPropertyName: 'Color' }, 'OrderedPropertyName'],
    [{ OrderBy: 'Up' }, 'OrderBy'],
    [{ OrderedPropertyName: 'Price' }, 'PriceTypeId'],
    [{ MinPrice: 10, MaxPrice: 5 }, 'MinPrice'],
    [{ MinPrice: -1 }, 'MinPrice'],
    [{ CategoryId: 0 }, 'CategoryId'],
    [{ BrandId: 'x' }, 'BrandId'],
    [{ DynamicAttributes: [{ TypeId: 1 }] }, 'DynamicAttributes.0.Value'],
    [{ IncludeStaticNavigation: 'yes' }, 'IncludeStaticNavigation'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    expectFieldError(await searchItems(api, acme, body), field);
  });

  it('rejects an unknown field', async () => {
    expectUnknownField(await searchItems(api, acme, { Colour: 'red' }), 'Colour');
  });

  it.each([
    ['CategoryId', { CategoryId: 999999 }],
    ['BrandId', { BrandId: 999999 }],
    ['TagId', { TagId: 999999 }],
    ['PriceTypeId', { PriceTypeId: 999999 }],
    ['DynamicAttributes.0.TypeId', { DynamicAttributes: [{ TypeId: 999999, Value: 'Red' }] }],
  ])('rejects an unknown %s with 400', async (field, body) => {
    expectFieldError(await searchItems(api, acme, body), field);
  });

  it('accepts a Query of exactly 200 characters, null fields, and the largest Take', async () => {
    const result = await searchOk(api, acme, {
      Query: 'a'.repeat(200),
      CategoryId: null,
      OrderBy: null,
      Take: 1000,
    });
    expect(result.TotalItemCount).toBe(0);
  });
});

describe('POST /private/catalog/items: tenants', () => {
  let acmeIds: Record<string, number>;

  beforeAll(async () => {
    const category = await createCategory(api, acme);
    const brand = await createBrand(api, acme);
    const tag = await createTag(api, acme);
    const priceType = await createPriceType(api, acme);
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      Title: 'Quixotic lantern',
      CategoryId: category.Id,
      BrandId: brand.Id,
      Tags: [{ Id: tag.Id }],
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 5 }],
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Brass' }],
    });
    const own = await createItem(api, globex, { Title: 'Quixotic candle' });
    acmeIds = {
      category: category.Id,
      brand: brand.Id,
      tag: tag.Id,
      priceType: priceType.Id,
      type: type.Id,
      item: item.Id,
      own: own.Id,
    };
  });

  it("finds only the tenant's own items, words and counts", async () => {
    const acmeResult = await searchOk(api, acme, {
      Query: 'quixotic',
      IncludeStaticNavigation: true,
      IncludeDynamicNavigation: true,
    });
    expect(idsOf(acmeResult)).toEqual([acmeIds.item]);
    const globexResult = await searchOk(api, globex, {
      Query: 'quixotic',
      IncludeStaticNavigation: true,
      IncludeDynamicNavigation: true,
    });
    expect(idsOf(globexResult)).toEqual([acmeIds.own]);
    expect(globexResult.StaticNavigation).toEqual({
      Categories: [],
      Brands: [],
      Tags: [],
      PriceRanges: [],
    });
    expect(globexResult.DynamicNavigation).toEqual([]);
    // "lanterns" is one typo from acme's word "lantern", which globex's catalog does not have.
    expect((await searchOk(api, globex, { Query: 'lanterns' })).TotalItemCount).toBe(0);
    expect(idsOf(await searchOk(api, acme, { Query: 'lanterns' }))).toEqual([acmeIds.item]);
  });

  it.each([
    ['CategoryId', () => ({ CategoryId: acmeIds.category })],
    ['BrandId', () => ({ BrandId: acmeIds.brand })],
    ['TagId', () => ({ TagId: acmeIds.tag })],
    ['PriceTypeId', () => ({ PriceTypeId: acmeIds.priceType })],
    [
      'DynamicAttributes.0.TypeId',
      () => ({ DynamicAttributes: [{ TypeId: acmeIds.type, Value: 'Brass' }] }),
    ],
  ])("treats another tenant's %s as unknown (400)", async (field, body) => {
    expectFieldError(await searchItems(api, globex, body()), field);
  });

  it("rejects a token of one tenant on another tenant's host with 401", async () => {
    const acmeToken = await privateToken(api, acme);
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/items`,
      tenant: globex,
      token: acmeToken,
      body: {},
    });
    expectError(response, 401);
  });

  it('needs a token', async () => {
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/items`,
      tenant: acme,
      token: '',
      body: {},
    });
    expectError(response, 401);
  });
});
