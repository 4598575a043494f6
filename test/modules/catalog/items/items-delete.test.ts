// Items (contract §5.3): delete.
import { describe, expect, it } from 'vitest';
import { CATALOG, createItem } from '../catalog-fixtures.ts';
import { expectError, expectFieldError, expectStatus } from '../../../support/expectations.ts';
import {
  useItemsApi,
  api,
  acme,
  remove,
  fetch,
  totalItems,
  fullItemBody,
} from './items-fixtures.ts';

useItemsApi();

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
