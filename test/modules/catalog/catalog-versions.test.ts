// Every versioned catalog resource answers an ETag and honours If-Match (contract §4,
// concurrency), and an item's version moves whenever its document changes, also through
// changes made elsewhere (a tag mapping, the rename of a tag, price type or attribute type).
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  getItem,
  itemEtag,
  unique,
} from './catalog-fixtures.ts';
import { etagOf, expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const call = (
  method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  ifMatch?: string,
) =>
  api.call({
    method,
    url: `${CATALOG}${url}`,
    tenant: acme,
    ...(body !== undefined ? { body } : {}),
    ...(ifMatch ? { headers: { 'if-match': ifMatch } } : {}),
  });

interface Resource {
  name: string;
  /** Makes one and answers the path of its single-resource routes. */
  create(): Promise<string>;
  /** A full replacement body (PUT). */
  replacement(): Record<string, unknown>;
  /** The field the replacement changes, to check nothing changed on 412. */
  field: string;
  patch?: () => Record<string, unknown>;
}

const resources: Resource[] = [
  {
    name: 'brand',
    create: async () => `/brand/${(await createBrand(api, acme)).Id}`,
    replacement: () => ({ Name: unique('Renamed') }),
    field: 'Name',
  },
  {
    name: 'tag',
    create: async () => `/tag/${(await createTag(api, acme)).Id}`,
    replacement: () => ({ Name: unique('Renamed'), Description: 'new' }),
    field: 'Name',
  },
  {
    name: 'category',
    create: async () => `/category/${(await createCategory(api, acme)).Id}`,
    replacement: () => ({ Name: unique('Renamed') }),
    field: 'Name',
    patch: () => ({ ShortDescription: unique('Short') }),
  },
  {
    name: 'dynamic attribute type',
    create: async () => `/dynamicattributetypes/${(await createAttributeType(api, acme)).Id}`,
    replacement: () => ({ Description: unique('Renamed') }),
    field: 'Description',
    patch: () => ({ Description: unique('Patched') }),
  },
  {
    name: 'price type',
    create: async () => `/pricetype/${(await createPriceType(api, acme)).Id}`,
    replacement: () => ({ Description: unique('Renamed'), PriceTypeSymbol: unique('£') }),
    field: 'Description',
  },
];

describe.each(resources)('a $name', (resource) => {
  it('answers an ETag on GET, and a new one after PUT', async () => {
    const path = await resource.create();
    const fetched = await call('GET', path);
    expectStatus(fetched, 200);
    const etag = etagOf(fetched);
    expect(etag).toMatch(/^"v\d+"$/);
    expect(etagOf(await call('GET', path))).toBe(etag);
    const updated = await call('PUT', path, resource.replacement(), etag);
    expectStatus(updated, 200);
    expect(etagOf(updated)).not.toBe(etag);
    expect(etagOf(await call('GET', path))).toBe(etagOf(updated));
  });

  it('refuses PUT with a stale If-Match (412) and changes nothing', async () => {
    const path = await resource.create();
    const before = await call('GET', path);
    const stale = etagOf(before);
    expectStatus(await call('PUT', path, resource.replacement(), stale), 200);
    const current = await call('GET', path);
    expectError(await call('PUT', path, resource.replacement(), stale), 412, 'PreconditionFailed');
    const after = await call('GET', path);
    expect(after.json<Record<string, unknown>>()[resource.field]).toBe(
      current.json<Record<string, unknown>>()[resource.field],
    );
    expect(etagOf(after)).toBe(etagOf(current));
    // '*' and a list that holds the current tag both match.
    expectStatus(await call('PUT', path, resource.replacement(), '*'), 200);
    const now = etagOf(await call('GET', path));
    expectStatus(await call('PUT', path, resource.replacement(), `"v0", ${now}`), 200);
  });

  it.runIf(resource.patch !== undefined)('honours If-Match on PATCH', async () => {
    const path = await resource.create();
    const etag = etagOf(await call('GET', path));
    expectError(await call('PATCH', path, resource.patch!(), '"v999"'), 412, 'PreconditionFailed');
    const patched = await call('PATCH', path, resource.patch!(), etag);
    expectStatus(patched, 200);
    expect(etagOf(patched)).not.toBe(etag);
  });

  it('refuses DELETE with a stale If-Match (412) and deletes with the current one', async () => {
    const path = await resource.create();
    const stale = etagOf(await call('GET', path));
    expectStatus(await call('PUT', path, resource.replacement()), 200);
    expectError(await call('DELETE', path, undefined, stale), 412, 'PreconditionFailed');
    expectStatus(await call('GET', path), 200);
    const current = etagOf(await call('GET', path));
    expectStatus(await call('DELETE', path, undefined, current), 204);
    expectError(await call('GET', path), 404, 'NotFound');
  });

  it('answers 404, not 412, for an unknown one with an If-Match', async () => {
    const path = (await resource.create()).replace(/\d+$/, '2147483000');
    expectError(await call('PUT', path, resource.replacement(), '"v1"'), 404, 'NotFound');
    expectError(await call('DELETE', path, undefined, '"v1"'), 404, 'NotFound');
  });
});

describe('a category’s metadata', () => {
  it('moves the category’s ETag when it changes', async () => {
    const category = await createCategory(api, acme);
    const path = `/category/${category.Id}`;
    const first = etagOf(await call('GET', path));
    const add = await api.call({
      method: 'POST',
      url: `${CATALOG}/categorymetadata`,
      tenant: acme,
      body: { CategoryId: category.Id, Key: 'k', Value: 'v' },
    });
    expectStatus(add, 201);
    const second = etagOf(await call('GET', path));
    expect(second).not.toBe(first);
    expectError(await call('PUT', path, { Name: 'x' }, first), 412, 'PreconditionFailed');
  });
});

describe('an item’s version and DateModified', () => {
  async function itemWithEverything() {
    const tag = await createTag(api, acme);
    const priceType = await createPriceType(api, acme);
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      Prices: [{ NormalPrice: 5, PriceTypeId: priceType.Id }],
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
      Tags: [{ Id: tag.Id }],
    });
    return { item, tag, priceType, type };
  }

  async function expectMoved(id: number, before: { etag: string; modified: string }) {
    const etag = await itemEtag(api, acme, id);
    const item = await getItem(api, acme, id);
    expect(etag).not.toBe(before.etag);
    expect(Date.parse(item.DateModified)).toBeGreaterThanOrEqual(Date.parse(before.modified));
    expect(item.DateModified).not.toBe(before.modified);
    return { etag, modified: item.DateModified };
  }

  async function state(id: number) {
    const item = await getItem(api, acme, id);
    return { etag: await itemEtag(api, acme, id), modified: item.DateModified };
  }

  const later = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('move when a tag is mapped or unmapped through itemtagmapping', async () => {
    const { item } = await itemWithEverything();
    const other = await createTag(api, acme);
    let before = await state(item.Id);
    await later();
    const map = await api.call({
      method: 'POST',
      url: `${CATALOG}/itemtagmapping`,
      tenant: acme,
      body: { ItemId: item.Id, TagId: other.Id },
    });
    expectStatus(map, 201);
    before = await expectMoved(item.Id, before);
    await later();
    const unmap = await api.call({
      method: 'DELETE',
      url: `${CATALOG}/itemtagmapping?itemId=${item.Id}&tagId=${other.Id}`,
      tenant: acme,
    });
    expectStatus(unmap, 204);
    await expectMoved(item.Id, before);
  });

  it('move when a tag, a price type or an attribute type it shows is renamed', async () => {
    const { item, tag, priceType, type } = await itemWithEverything();
    let before = await state(item.Id);
    for (const [path, body] of [
      [`/tag/${tag.Id}`, { Name: unique('Tag renamed') }],
      [`/pricetype/${priceType.Id}`, { Description: 'Euro', PriceTypeSymbol: '€' }],
      [`/dynamicattributetypes/${type.Id}`, { Description: unique('Colour') }],
    ] as const) {
      await later();
      expectStatus(await call('PUT', path, body), 200);
      before = await expectMoved(item.Id, before);
    }
    const shown = await getItem(api, acme, item.Id);
    expect(shown.Prices[0]!.PriceTypeSymbol).toBe('€');
  });

  it('stay when a rename changes nothing the item shows', async () => {
    const { item, priceType } = await itemWithEverything();
    const before = await state(item.Id);
    // The price type's description is not part of the item's document.
    const put = await call('PUT', `/pricetype/${priceType.Id}`, {
      Description: unique('Only the description'),
      PriceTypeSymbol: priceType.PriceTypeSymbol,
    });
    expectStatus(put, 200);
    expect(await state(item.Id)).toEqual(before);
  });
});
