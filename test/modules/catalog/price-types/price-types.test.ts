// Price types (contract §5.3) `{Id, Description, PriceTypeSymbol}` at /pricetype and /pricetypes.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createItem,
  createPriceType,
  getItem,
  type Page,
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

const URL = `${CATALOG}/pricetype`;
const post = (body: unknown) => api.call({ method: 'POST', url: URL, tenant: acme, body });
const put = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const fetch = (id: number | string) => api.call({ url: `${URL}/${id}`, tenant: acme });
const remove = (id: number | string) =>
  api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme });
const list = (query = '') => api.call({ url: `${CATALOG}/pricetypes?${query}`, tenant: acme });

describe('POST /private/catalog/pricetype', () => {
  it('creates a price type: 201 with Location', async () => {
    const response = await post({ Description: 'Euro', PriceTypeSymbol: '€' });
    expectStatus(response, 201);
    const created = response.json<PriceTypeJson>();
    expect(created).toEqual({
      Id: expect.any(Number) as number,
      Description: 'Euro',
      PriceTypeSymbol: '€',
    });
    expect(response.headers.location).toBe(`${URL}/${created.Id}`);
  });

  it('ignores an Id in the body', async () => {
    const response = await post({ Id: 424_242, Description: 'Yen', PriceTypeSymbol: 'JPY' });
    expectStatus(response, 201);
    expect(response.json<PriceTypeJson>().Id).not.toBe(424_242);
  });

  it.each([
    ['Description missing', { PriceTypeSymbol: 'X' }, 'Description'],
    ['PriceTypeSymbol missing', { Description: 'X' }, 'PriceTypeSymbol'],
    ['Description empty', { Description: '', PriceTypeSymbol: 'X' }, 'Description'],
    ['Description over 256', { Description: 'd'.repeat(257), PriceTypeSymbol: 'X' }, 'Description'],
    [
      'PriceTypeSymbol over 16',
      { Description: 'X', PriceTypeSymbol: 's'.repeat(17) },
      'PriceTypeSymbol',
    ],
  ])('refuses %s with 400', async (_case, body, field) => {
    expectFieldError(await post(body), field);
  });

  it('refuses unknown fields with 400 naming them', async () => {
    expectUnknownField(await post({ Description: 'X', PriceTypeSymbol: 'X', Rate: 1 }), 'Rate');
  });
});

describe('GET /private/catalog/pricetype/{id}', () => {
  it('returns the price type', async () => {
    const created = await createPriceType(api, acme);
    const response = await fetch(created.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual(created);
  });

  it('answers 404 for an unknown one and 400 for a bad id', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
    expectFieldError(await fetch('abc'), 'id');
  });
});

describe('PUT /private/catalog/pricetype/{id}', () => {
  it('updates it, and item prices show the new symbol', async () => {
    const priceType = await createPriceType(api, acme, { PriceTypeSymbol: 'OLD' });
    const item = await createItem(api, acme, {
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 1 }],
    });
    const response = await put(priceType.Id, { Description: 'Renamed', PriceTypeSymbol: 'NEW' });
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      Id: priceType.Id,
      Description: 'Renamed',
      PriceTypeSymbol: 'NEW',
    });
    expect((await getItem(api, acme, item.Id)).Prices[0]!.PriceTypeSymbol).toBe('NEW');
  });

  it('answers 404 for an unknown one and 400 for a bad body', async () => {
    expectError(await put(999_999, { Description: 'X', PriceTypeSymbol: 'X' }), 404, 'NotFound');
    const priceType = await createPriceType(api, acme);
    expectFieldError(await put(priceType.Id, { Description: 'X' }), 'PriceTypeSymbol');
    expectUnknownField(
      await put(priceType.Id, { Description: 'X', PriceTypeSymbol: 'X', Y: 1 }),
      'Y',
    );
    expect((await fetch(priceType.Id)).json()).toEqual(priceType);
  });
});

describe('DELETE /private/catalog/pricetype/{id}', () => {
  it('deletes an unused price type', async () => {
    const priceType = await createPriceType(api, acme);
    const response = await remove(priceType.Id);
    expectStatus(response, 204);
    expect(response.body).toBe('');
    expectError(await fetch(priceType.Id), 404, 'NotFound');
    expectError(await remove(priceType.Id), 404, 'NotFound');
  });

  it('answers 409 while item prices use it, and deletes it once they are gone', async () => {
    const priceType = await createPriceType(api, acme);
    const item = await createItem(api, acme, {
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 1 }],
    });
    expectError(await remove(priceType.Id), 409, 'PriceTypeInUse');
    expectStatus(await fetch(priceType.Id), 200);
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${CATALOG}/items/${item.Id}/prices`,
        tenant: acme,
        body: [],
      }),
      200,
    );
    expectStatus(await remove(priceType.Id), 204);
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('0'), 'id');
  });
});

describe('GET /private/catalog/pricetypes', () => {
  it('pages the price types in Id order with TotalCount', async () => {
    for (let i = 0; i < 3; i++) await createPriceType(api, acme);
    const all = (await list('take=1000')).json<Page<PriceTypeJson>>();
    expect(all.TotalCount).toBe(all.Results.length);
    expect(all.TotalCount).toBeGreaterThanOrEqual(3);
    const ids = all.Results.map((p) => p.Id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const page = (await list('skip=1&take=2')).json<Page<PriceTypeJson>>();
    expect(page).toEqual({ Results: all.Results.slice(1, 3), TotalCount: all.TotalCount });
    expect((await list('skip=1000')).json()).toEqual({ Results: [], TotalCount: all.TotalCount });
  });

  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
  ])('refuses %s with 400', async (query, field) => {
    expectFieldError(await list(query), field);
  });
});
