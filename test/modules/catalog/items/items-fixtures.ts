// Shared setup of the items tests (split by behaviour): the server, tenants and request helpers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createPriceType,
  createTag,
  unique,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';

export let api: TestApi;
export let acme: TestTenant;

export const ITEM = `${CATALOG}/item`;
export const sku = () => `SKU-${randomUUID()}`;
/** A word no other item contains, for the full-text filter. */
export const word = () => `w${randomUUID().replaceAll('-', '').slice(0, 12)}`;

export const post = (body: unknown) => api.call({ method: 'POST', url: ITEM, tenant: acme, body });
export const put = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: `${ITEM}/${id}`, tenant: acme, body, headers });
export const patch = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PATCH', url: `${ITEM}/${id}`, tenant: acme, body, headers });
export const remove = (id: number | string, headers: Record<string, string> = {}) =>
  api.call({ method: 'DELETE', url: `${ITEM}/${id}`, tenant: acme, headers });
export const fetch = (id: number | string) => api.call({ url: `${ITEM}/${id}`, tenant: acme });
export const list = async (query = 'take=1000') => {
  const response = await api.call({ url: `${CATALOG}/items?${query}`, tenant: acme });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>();
};
export const search = (query: string) =>
  api.call({ url: `${CATALOG}/items/search?${query}`, tenant: acme });
export const searchOk = async (query: string) => {
  const response = await search(query);
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>();
};
export const totalItems = async () => (await list('take=1')).TotalCount;

/** An item with every scalar field set, plus its references. */
export async function fullItemBody() {
  const [category, brand, priceType, type, tag] = await Promise.all([
    createCategory(api, acme),
    createBrand(api, acme),
    createPriceType(api, acme), // symbols are unique per tenant: one of its own
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

/** Registers the file's server: started before its tests, closed after. */
export function useItemsApi(): void {
  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
  });
  afterAll(() => api.close());
}
