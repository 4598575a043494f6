// Brands (contract §5.3) `{Id, Name}`: CRUD, list, and the distinct brands of the items in a
// category and all its subcategories.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createBrand,
  createCategory,
  createItem,
  unique,
  type BrandJson,
  type CategoryJson,
  type Page,
} from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const URL = `${CATALOG}/brand`;
const post = (body: unknown) => api.call({ method: 'POST', url: URL, tenant: acme, body });
const put = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const fetch = (id: number | string) => api.call({ url: `${URL}/${id}`, tenant: acme });
const remove = (id: number | string) =>
  api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme });
const list = (query = '') => api.call({ url: `${CATALOG}/brands?${query}`, tenant: acme });
const listOk = async (query = '') => {
  const response = await list(query);
  expectStatus(response, 200);
  return response.json<Page<BrandJson>>();
};

describe('POST /private/catalog/brand', () => {
  it('creates a brand: 201 with Location', async () => {
    const name = unique('Acme Tools');
    const response = await post({ Name: name });
    expectStatus(response, 201);
    const brand = response.json<BrandJson>();
    expect(brand).toEqual({ Id: expect.any(Number) as number, Name: name });
    expect(response.headers.location).toBe(`${URL}/${brand.Id}`);
  });

  it('refuses a name another brand has, in any case, with 409', async () => {
    const name = unique('Dup');
    await createBrand(api, acme, name);
    expectError(await post({ Name: name }), 409, 'DuplicateBrandName');
    expectError(await post({ Name: name.toLowerCase() }), 409, 'DuplicateBrandName');
  });

  it.each([
    ['Name missing', {}, 'Name'],
    ['Name empty', { Name: '' }, 'Name'],
    ['Name over 256', { Name: 'n'.repeat(257) }, 'Name'],
  ])('refuses %s with 400', async (_case, body, field) => {
    expectFieldError(await post(body), field);
  });

  it('accepts a name of 256 characters and refuses unknown fields', async () => {
    expectStatus(await post({ Name: `${unique('L')}`.padEnd(256, 'l') }), 201);
    expectUnknownField(await post({ Name: unique('x'), Logo: 'x' }), 'Logo');
  });
});

describe('GET /private/catalog/brand/{id}', () => {
  it('returns the brand', async () => {
    const brand = await createBrand(api, acme);
    const response = await fetch(brand.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual(brand);
  });

  it('answers 404 for an unknown brand and 400 for a bad id', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
    expectFieldError(await fetch('brand'), 'id');
  });
});

describe('PUT /private/catalog/brand/{id}', () => {
  it('renames the brand', async () => {
    const brand = await createBrand(api, acme);
    const name = unique('Renamed');
    const response = await put(brand.Id, { Id: brand.Id, Name: name });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Id: brand.Id, Name: name });
    expect((await fetch(brand.Id)).json()).toEqual({ Id: brand.Id, Name: name });
  });

  it("refuses another brand's name with 409 and keeps its own", async () => {
    const taken = await createBrand(api, acme);
    const brand = await createBrand(api, acme);
    expectError(await put(brand.Id, { Name: taken.Name }), 409, 'DuplicateBrandName');
    expectStatus(await put(brand.Id, { Name: brand.Name }), 200);
  });

  it('answers 400 for a different Id in the body, 404 for an unknown brand', async () => {
    const brand = await createBrand(api, acme);
    expectError(await put(brand.Id, { Id: brand.Id + 1, Name: 'x' }), 400, 'IdMismatch');
    expectError(await put(999_999, { Name: unique('x') }), 404, 'NotFound');
    expectFieldError(await put(brand.Id, {}), 'Name');
    expect((await fetch(brand.Id)).json()).toEqual(brand);
  });
});

describe('DELETE /private/catalog/brand/{id}', () => {
  it('deletes an unused brand', async () => {
    const brand = await createBrand(api, acme);
    const response = await remove(brand.Id);
    expectStatus(response, 204);
    expectError(await fetch(brand.Id), 404, 'NotFound');
    expectError(await remove(brand.Id), 404, 'NotFound');
  });

  it('answers 409 while items use it, and deletes it once they do not', async () => {
    const brand = await createBrand(api, acme);
    const item = await createItem(api, acme, { BrandId: brand.Id });
    expectError(await remove(brand.Id), 409, 'BrandInUse');
    expectStatus(await fetch(brand.Id), 200);
    expectStatus(
      await api.call({
        method: 'PATCH',
        url: `${CATALOG}/item/${item.Id}`,
        tenant: acme,
        body: { BrandId: null },
      }),
      200,
    );
    expectStatus(await remove(brand.Id), 204);
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('-1'), 'id');
  });
});

describe('GET /private/catalog/brands', () => {
  it('pages the brands in Id order with TotalCount', async () => {
    for (let i = 0; i < 3; i++) await createBrand(api, acme);
    const all = await listOk('take=1000');
    expect(all.TotalCount).toBe(all.Results.length);
    const ids = all.Results.map((b) => b.Id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await listOk('skip=1&take=2')).toEqual({
      Results: all.Results.slice(1, 3),
      TotalCount: all.TotalCount,
    });
    expect(await listOk('skip=5000')).toEqual({ Results: [], TotalCount: all.TotalCount });
  });

  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
    ['categoryId=0', 'categoryId'],
    ['categoryId=abc', 'categoryId'],
  ])('refuses %s with 400', async (query, field) => {
    expectFieldError(await list(query), field);
  });
});

describe('GET /private/catalog/brands?categoryId', () => {
  // A 4-level hierarchy: root › child › grandchild › leaf, and a sibling of child.
  let tree: Record<'root' | 'child' | 'grandchild' | 'leaf' | 'sibling' | 'empty', CategoryJson>;
  let brands: Record<'a' | 'b' | 'c' | 'd' | 'e', BrandJson>;

  beforeAll(async () => {
    const root = await createCategory(api, acme);
    const child = await createCategory(api, acme, { ParentCategoryId: root.Id });
    const grandchild = await createCategory(api, acme, { ParentCategoryId: child.Id });
    const leaf = await createCategory(api, acme, { ParentCategoryId: grandchild.Id });
    const sibling = await createCategory(api, acme, { ParentCategoryId: root.Id });
    const empty = await createCategory(api, acme);
    tree = { root, child, grandchild, leaf, sibling, empty };
    brands = {
      a: await createBrand(api, acme),
      b: await createBrand(api, acme),
      c: await createBrand(api, acme),
      d: await createBrand(api, acme),
      e: await createBrand(api, acme),
    };
    // a in root and leaf (distinct once), b in child, c in the leaf, d in the sibling; e in none.
    await createItem(api, acme, { CategoryId: root.Id, BrandId: brands.a.Id });
    await createItem(api, acme, { CategoryId: leaf.Id, BrandId: brands.a.Id });
    await createItem(api, acme, { CategoryId: child.Id, BrandId: brands.b.Id });
    await createItem(api, acme, { CategoryId: leaf.Id, BrandId: brands.c.Id });
    await createItem(api, acme, { CategoryId: leaf.Id, BrandId: brands.c.Id });
    await createItem(api, acme, { CategoryId: sibling.Id, BrandId: brands.d.Id });
    await createItem(api, acme, { CategoryId: grandchild.Id });
    await createItem(api, acme, { BrandId: brands.e.Id });
  });

  it('lists the distinct brands of the whole subtree of the root', async () => {
    expect(await listOk(`categoryId=${tree.root.Id}`)).toEqual({
      Results: [brands.a, brands.b, brands.c, brands.d],
      TotalCount: 4,
    });
  });

  it('includes the brands of subcategories three levels down', async () => {
    expect(await listOk(`categoryId=${tree.child.Id}`)).toEqual({
      Results: [brands.a, brands.b, brands.c],
      TotalCount: 3,
    });
    expect(await listOk(`categoryId=${tree.grandchild.Id}`)).toEqual({
      Results: [brands.a, brands.c],
      TotalCount: 2,
    });
    expect(await listOk(`categoryId=${tree.leaf.Id}`)).toEqual({
      Results: [brands.a, brands.c],
      TotalCount: 2,
    });
    expect(await listOk(`categoryId=${tree.sibling.Id}`)).toEqual({
      Results: [brands.d],
      TotalCount: 1,
    });
  });

  it('pages the distinct brands and counts them before paging', async () => {
    expect(await listOk(`categoryId=${tree.root.Id}&skip=1&take=2`)).toEqual({
      Results: [brands.b, brands.c],
      TotalCount: 4,
    });
    expect(await listOk(`categoryId=${tree.root.Id}&skip=10`)).toEqual({
      Results: [],
      TotalCount: 4,
    });
  });

  it('answers an empty list for a category without branded items', async () => {
    expect(await listOk(`categoryId=${tree.empty.Id}`)).toEqual({ Results: [], TotalCount: 0 });
  });

  it('follows an item moved into the subtree', async () => {
    const item = await createItem(api, acme, { BrandId: brands.e.Id });
    expect((await listOk(`categoryId=${tree.grandchild.Id}`)).TotalCount).toBe(2);
    await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${item.Id}`,
      tenant: acme,
      body: { CategoryId: tree.leaf.Id },
    });
    expect(await listOk(`categoryId=${tree.grandchild.Id}`)).toEqual({
      Results: [brands.a, brands.c, brands.e],
      TotalCount: 3,
    });
  });

  it('answers 400 UnknownCategory for an unknown category', async () => {
    expectError(await list('categoryId=999999'), 400, 'UnknownCategory');
  });
});
