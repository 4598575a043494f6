// Who may use the catalog (contract §3: /private/* needs the private scope) and tenant isolation
// (§1: nothing of one tenant is visible to another): globex can neither read nor change nor
// refer to acme's catalog, and its lists never show acme's rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import {
  CATALOG,
  consumerToken,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  privateToken,
  type AttributeTypeJson,
  type BrandJson,
  type CategoryJson,
  type ItemJson,
  type PriceTypeJson,
  type TagJson,
} from './catalog-fixtures.ts';
import { etagOf, expectError, expectFieldError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

interface Catalog {
  priceType: PriceTypeJson;
  brand: BrandJson;
  category: CategoryJson;
  child: CategoryJson;
  tag: TagJson;
  type: AttributeTypeJson;
  item: ItemJson;
  variant: ItemJson;
  standAlone: ItemJson;
}

/** A small catalog: every kind of row, related the way a real catalog is. */
async function seed(tenant: TestTenant): Promise<Catalog> {
  const priceType = await createPriceType(api, tenant);
  const brand = await createBrand(api, tenant, 'Shared name');
  const category = await createCategory(api, tenant);
  const child = await createCategory(api, tenant, { ParentCategoryId: category.Id });
  const tag = await createTag(api, tenant, { Name: 'Shared tag' });
  const type = await createAttributeType(api, tenant, 'Shared type');
  const response = await api.call({
    method: 'POST',
    url: `${CATALOG}/categorymetadata`,
    tenant,
    body: { CategoryId: category.Id, Key: 'k', Value: tenant.name },
  });
  expectStatus(response, 201);
  const item = await createItem(api, tenant, {
    SKU: 'SHARED-SKU',
    CategoryId: child.Id,
    BrandId: brand.Id,
    Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 10 }],
    DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
    Tags: [{ Id: tag.Id }],
  });
  const variant = await createItem(api, tenant, { DefaultItemId: item.Id });
  const standAlone = await createItem(api, tenant);
  // Read again: grouping the variant made the item a default item.
  const grouped = await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant });
  return {
    priceType,
    brand,
    category,
    child,
    tag,
    type,
    item: grouped.json<ItemJson>(),
    variant,
    standAlone,
  };
}

let a: Catalog;
let g: Catalog;

beforeAll(async () => {
  a = await seed(acme);
  g = await seed(globex);
});

const as = (tenant: TestTenant) => ({
  get: (url: string) => api.call({ url: `${CATALOG}${url}`, tenant }),
  send: (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    api.call({ method, url: `${CATALOG}${url}`, tenant, ...(body === undefined ? {} : { body }) }),
});

describe('access to the catalog', () => {
  it.each([
    ['GET', '/items'],
    ['GET', '/item/1'],
    ['POST', '/item'],
    ['GET', '/brands'],
    ['GET', '/categories'],
    ['DELETE', '/tag/1'],
  ] as const)('answers %s %s without a token with 401, no error code', async (method, url) => {
    const response = await api.call({
      method,
      url: `${CATALOG}${url}`,
      tenant: acme,
      token: null,
      ...(method === 'POST' ? { body: { Title: 'x' } } : {}),
    });
    expectError(response, 401, 'InvalidToken');
    // RFC 6750 §3.1: no credentials, no error code.
    expect(response.headers['www-authenticate']).toBe('Bearer realm="http://acme.localhost:8080"');
  });

  it('answers a Consumer app (public scope only) with 403 and changes nothing', async () => {
    const token = await consumerToken(api, acme);
    const read = await api.call({ url: `${CATALOG}/items`, tenant: acme, token });
    expectError(read, 403, 'InsufficientScope');
    expect(read.headers['www-authenticate']).toContain('insufficient_scope');
    const before = (await as(acme).get('/items?take=1')).json<{ TotalCount: number }>().TotalCount;
    expectError(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/item`,
        tenant: acme,
        token,
        body: { Title: 'x' },
      }),
      403,
      'InsufficientScope',
    );
    expectError(
      await api.call({
        method: 'DELETE',
        url: `${CATALOG}/item/${a.standAlone.Id}`,
        tenant: acme,
        token,
      }),
      403,
    );
    expect((await as(acme).get('/items?take=1')).json<{ TotalCount: number }>().TotalCount).toBe(
      before,
    );
    expectStatus(await as(acme).get(`/item/${a.standAlone.Id}`), 200);
  });

  it('serves a Private app (public and private scopes)', async () => {
    const token = await privateToken(api, acme);
    expectStatus(await api.call({ url: `${CATALOG}/item/${a.item.Id}`, tenant: acme, token }), 200);
    const created = await api.call({
      method: 'POST',
      url: `${CATALOG}/brand`,
      tenant: acme,
      token,
      body: { Name: 'By a private app' },
    });
    expectStatus(created, 201);
  });

  it("refuses globex's token on acme's host with 401", async () => {
    const response = await api.call({
      url: `${CATALOG}/item/${a.item.Id}`,
      tenant: acme,
      token: globex.token,
    });
    expectError(response, 401, 'InvalidToken');
  });
});

describe("another tenant's items", () => {
  const globexApi = () => as(globex);

  it('cannot be fetched, updated, patched or deleted (404)', async () => {
    const id = a.item.Id;
    expectError(await globexApi().get(`/item/${id}`), 404, 'NotFound');
    expectError(await globexApi().send('PUT', `/item/${id}`, { Title: 'Stolen' }), 404, 'NotFound');
    expectError(
      await globexApi().send('PUT', '/item', { Id: id, Title: 'Stolen' }),
      404,
      'NotFound',
    );
    expectError(
      await globexApi().send('PATCH', `/item/${id}`, { Name: 'Stolen' }),
      404,
      'NotFound',
    );
    expectError(
      await globexApi().send('PATCH', '/item', { Id: id, Name: 'Stolen' }),
      404,
      'NotFound',
    );
    expectError(await globexApi().send('DELETE', `/item/${id}`), 404, 'NotFound');
    const after = await as(acme).get(`/item/${id}`);
    expect(after.json()).toEqual(a.item);
  });

  it('cannot be answered with 412 either: an If-Match does not reveal the item', async () => {
    const etag = etagOf(await as(acme).get(`/item/${a.item.Id}`));
    const response = await api.call({
      method: 'PUT',
      url: `${CATALOG}/item/${a.item.Id}`,
      tenant: globex,
      body: { Title: 'x' },
      headers: { 'if-match': etag },
    });
    expectError(response, 404, 'NotFound');
  });

  it('cannot be grouped, moved or ungrouped (404), in either role', async () => {
    expectError(
      await globexApi().send('POST', `/items/${g.standAlone.Id}/group`, [a.standAlone.Id]),
      404,
    );
    expectError(
      await globexApi().send('POST', `/items/${a.standAlone.Id}/group`, [g.standAlone.Id]),
      404,
    );
    expectError(
      await globexApi().send('POST', `/items/${g.standAlone.Id}/move`, [a.variant.Id]),
      404,
    );
    expectError(await globexApi().send('POST', `/items/${a.item.Id}/ungroup`), 404);
    expect(
      (await as(acme).get(`/item/${a.standAlone.Id}`)).json<ItemJson>().DefaultItemId,
    ).toBeNull();
    expect((await as(acme).get(`/item/${a.variant.Id}`)).json<ItemJson>().DefaultItemId).toBe(
      a.item.Id,
    );
    expect(
      (await globexApi().get(`/item/${g.standAlone.Id}`)).json<ItemJson>().DefaultItemId,
    ).toBeNull();
  });

  it('cannot be a DefaultItemId of an item of this tenant (400)', async () => {
    expectFieldError(
      await globexApi().send('POST', '/item', { Title: 'x', DefaultItemId: a.item.Id }),
      'DefaultItemId',
    );
    expectFieldError(
      await globexApi().send('PATCH', `/item/${g.standAlone.Id}`, { DefaultItemId: a.item.Id }),
      'DefaultItemId',
    );
  });

  it('keep their prices and dynamic attributes to themselves (404)', async () => {
    const id = a.item.Id;
    expectError(await globexApi().get(`/items/${id}/prices`), 404, 'NotFound');
    expectError(await globexApi().send('PUT', `/items/${id}/prices`, []), 404, 'NotFound');
    expectError(await globexApi().get(`/items/${id}/dynamicattributes`), 404, 'NotFound');
    expectError(
      await globexApi().send('PUT', `/items/${id}/dynamicattributes`, []),
      404,
      'NotFound',
    );
    const after = (await as(acme).get(`/item/${id}`)).json<ItemJson>();
    expect(after.Prices).toEqual(a.item.Prices);
    expect(after.DynamicAttributes).toEqual(a.item.DynamicAttributes);
  });

  it('never appear in lists or searches', async () => {
    const acmeIds = [a.item.Id, a.variant.Id, a.standAlone.Id];
    const list = (await globexApi().get('/items?take=1000')).json<{
      Results: ItemJson[];
      TotalCount: number;
    }>();
    expect(list.Results.map((i) => i.Id).sort()).toEqual(
      [g.item.Id, g.variant.Id, g.standAlone.Id].sort(),
    );
    expect(list.TotalCount).toBe(3);
    for (const query of [
      `itemIds=${acmeIds.join(',')}`,
      `categoryId=${a.child.Id}`,
      `brandId=${a.brand.Id}`,
      `defaultItemId=${a.item.Id}`,
    ]) {
      expect((await globexApi().get(`/items/search?${query}`)).json(), query).toEqual({
        Results: [],
        TotalCount: 0,
      });
    }
    const bySku = (await globexApi().get('/items/search?sku=SHARED-SKU')).json<{
      Results: ItemJson[];
    }>();
    expect(bySku.Results.map((i) => i.Id)).toEqual([g.item.Id]);
  });

  it('do not take the SKU away from this tenant', () => {
    // Both seeds created an item with SKU SHARED-SKU: SKUs are unique per tenant only.
    expect(a.item.SKU).toBe(g.item.SKU);
  });
});

describe("another tenant's references", () => {
  const globexApi = () => as(globex);

  it('are unknown in item bodies (400)', async () => {
    const post = (body: Record<string, unknown>) =>
      globexApi().send('POST', '/item', { Title: 'x', ...body });
    expectFieldError(await post({ CategoryId: a.category.Id }), 'CategoryId');
    expectFieldError(await post({ BrandId: a.brand.Id }), 'BrandId');
    expectFieldError(await post({ Tags: [{ Id: a.tag.Id }] }), 'Tags.0.Id');
    expectFieldError(
      await post({ Prices: [{ PriceTypeId: a.priceType.Id, NormalPrice: 1 }] }),
      'Prices.0.PriceTypeId',
    );
    expectFieldError(
      await post({ Prices: [{ CurrencyId: a.priceType.Id, NormalPrice: 1 }] }),
      'Prices.0.PriceTypeId',
    );
    expectFieldError(
      await post({ DynamicAttributes: [{ TypeId: a.type.Id, Value: 'x' }] }),
      'DynamicAttributes.0.TypeId',
    );
    const acmeValue = a.item.DynamicAttributes[0]!.TypeValueId;
    expectFieldError(
      await globexApi().send('PUT', `/items/${g.item.Id}/dynamicattributes`, [
        { TypeId: g.type.Id, TypeValueId: acmeValue },
      ]),
      'DynamicAttributes.0.TypeValueId',
    );
    expect((await globexApi().get('/items?take=1')).json<{ TotalCount: number }>().TotalCount).toBe(
      3,
    );
  });

  it('are unknown as a parent category or a metadata category (400)', async () => {
    expectFieldError(
      await globexApi().send('POST', '/category', { Name: 'x', ParentCategoryId: a.category.Id }),
      'ParentCategoryId',
    );
    expectFieldError(
      await globexApi().send('PATCH', `/category/${g.child.Id}`, {
        ParentCategoryId: a.category.Id,
      }),
      'ParentCategoryId',
    );
    expectFieldError(
      await globexApi().send('POST', '/categorymetadata', {
        CategoryId: a.category.Id,
        Key: 'x',
        Value: 'y',
      }),
      'CategoryId',
    );
    expectFieldError(
      await globexApi().send('PUT', '/categorymetadata', {
        CategoryId: a.category.Id,
        Key: 'k',
        Value: 'y',
      }),
      'CategoryId',
    );
  });

  it('cannot be mapped (404)', async () => {
    expectError(
      await globexApi().send('POST', '/itemtagmapping', { ItemId: a.item.Id, TagId: g.tag.Id }),
      404,
      'NotFound',
    );
    expectError(
      await globexApi().send('POST', '/itemtagmapping', {
        ItemId: g.standAlone.Id,
        TagId: a.tag.Id,
      }),
      404,
      'NotFound',
    );
    for (const filter of [`itemId=${a.item.Id}`, `tagId=${a.tag.Id}`])
      expect((await globexApi().get(`/itemtagmappings?${filter}`)).json()).toEqual({
        Results: [],
        TotalCount: 0,
      });
    expectError(
      await globexApi().send('DELETE', `/itemtagmapping?itemId=${a.item.Id}&tagId=${a.tag.Id}`),
      404,
    );
    expect((await as(acme).get(`/itemtagmappings?itemId=${a.item.Id}`)).json()).toEqual({
      Results: [{ ItemId: a.item.Id, TagId: a.tag.Id }],
      TotalCount: 1,
    });
  });

  it('do not count for brands by category (400 for an unknown category)', async () => {
    expectError(
      await globexApi().get(`/brands?categoryId=${a.category.Id}`),
      400,
      'UnknownCategory',
    );
    expect((await globexApi().get(`/brands?categoryId=${g.category.Id}`)).json()).toEqual({
      Results: [g.brand],
      TotalCount: 1,
    });
  });
});

describe("another tenant's brands, categories, tags, types and price types", () => {
  const globexApi = () => as(globex);

  it.each([
    ['brand', () => `/brand/${a.brand.Id}`, { Name: 'Stolen' }],
    ['category', () => `/category/${a.category.Id}`, { Name: 'Stolen' }],
    ['tag', () => `/tag/${a.tag.Id}`, { Name: 'Stolen' }],
    ['attribute type', () => `/dynamicattributetypes/${a.type.Id}`, { Description: 'Stolen' }],
    [
      'price type',
      () => `/pricetype/${a.priceType.Id}`,
      { Description: 'Stolen', PriceTypeSymbol: 'X' },
    ],
  ])('a %s cannot be fetched, replaced or deleted (404)', async (_kind, url, body) => {
    const before = (await as(acme).get(url())).json<unknown>();
    expectError(await globexApi().get(url()), 404, 'NotFound');
    expectError(await globexApi().send('PUT', url(), body), 404, 'NotFound');
    expectError(await globexApi().send('DELETE', url()), 404, 'NotFound');
    expect((await as(acme).get(url())).json()).toEqual(before);
  });

  it('a category or type cannot be patched (404), nor its metadata or values read', async () => {
    expectError(await globexApi().send('PATCH', `/category/${a.category.Id}`, { Name: 'x' }), 404);
    expectError(
      await globexApi().send('PATCH', `/dynamicattributetypes/${a.type.Id}`, { Description: 'x' }),
      404,
    );
    expectError(
      await globexApi().get(`/dynamicattributetypes/${a.type.Id}/dynamicattributes`),
      404,
    );
    expectError(await globexApi().get(`/categorymetadata?categoryId=${a.category.Id}`), 404);
    expectError(
      await globexApi().send('DELETE', `/categorymetadata?categoryId=${a.category.Id}`),
      404,
    );
    expect((await as(acme).get(`/categorymetadata?categoryId=${a.category.Id}`)).json()).toEqual([
      { Key: 'k', Value: 'acme' },
    ]);
  });

  it('never appear in the lists or the category tree', async () => {
    const only = async (url: string, expected: number[]) => {
      const page = (await globexApi().get(url)).json<{
        Results: { Id: number }[];
        TotalCount: number;
      }>();
      expect(
        page.Results.map((r) => r.Id),
        url,
      ).toEqual(expected);
      expect(page.TotalCount, url).toBe(expected.length);
    };
    await only('/brands', [g.brand.Id]);
    await only('/tags', [g.tag.Id]);
    await only('/dynamicattributetypes', [g.type.Id]);
    await only('/pricetypes', [g.priceType.Id]);
    const tree = (await globexApi().get('/categories')).json<{
      Categories: { Id: number; CategoryTreeItems: { Id: number }[] }[];
    }>();
    expect(tree.Categories.map((c) => c.Id)).toEqual([g.category.Id]);
    expect(tree.Categories[0]!.CategoryTreeItems.map((c) => c.Id)).toEqual([g.child.Id]);
    expect(
      (await globexApi().get(`/dynamicattributetypes/${g.type.Id}/dynamicattributes`)).json(),
    ).toEqual(g.item.DynamicAttributes);
  });

  it('share names with this tenant: uniqueness is per tenant', () => {
    expect(g.brand.Name).toBe(a.brand.Name);
    expect(g.tag.Name).toBe(a.tag.Name);
    expect(g.type.Description).toBe(a.type.Description);
  });

  it('still block their own deletion only in their own tenant (409 stays with acme)', async () => {
    expectError(await as(acme).send('DELETE', `/brand/${a.brand.Id}`), 409, 'BrandInUse');
    expectError(await as(acme).send('DELETE', `/tag/${a.tag.Id}`), 409, 'TagInUse');
    expectError(
      await as(acme).send('DELETE', `/dynamicattributetypes/${a.type.Id}`),
      409,
      'AttributeTypeInUse',
    );
    expectError(
      await as(acme).send('DELETE', `/pricetype/${a.priceType.Id}`),
      409,
      'PriceTypeInUse',
    );
    expectError(
      await as(acme).send('DELETE', `/category/${a.category.Id}`),
      409,
      'CategoryHasChildren',
    );
    expectError(await as(acme).send('DELETE', `/category/${a.child.Id}`), 409, 'CategoryHasItems');
  });
});
