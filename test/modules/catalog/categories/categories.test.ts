// Categories (contract §5.3): create (with parent), fetch with metadata, update, patch, remove
// (409 while it has items or children), the full tree, SubCategoryCount, metadata operations,
// and 409 for a cycle.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createCategory,
  createItem,
  unique,
  type CategoryJson,
  type CategoryTreeItemJson,
  type MetadataJson,
} from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const URL = `${CATALOG}/category`;
const META = `${CATALOG}/categorymetadata`;
const post = (body: unknown) => api.call({ method: 'POST', url: URL, tenant: acme, body });
const put = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const patch = (id: number | string, body: unknown) =>
  api.call({ method: 'PATCH', url: `${URL}/${id}`, tenant: acme, body });
const fetch = (id: number | string) => api.call({ url: `${URL}/${id}`, tenant: acme });
const remove = (id: number | string) =>
  api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme });
const getCategory = async (id: number) => {
  const response = await fetch(id);
  expectStatus(response, 200);
  return response.json<CategoryJson>();
};
const tree = async () => {
  const response = await api.call({ url: `${CATALOG}/categories`, tenant: acme });
  expectStatus(response, 200);
  return response.json<{ Categories: CategoryTreeItemJson[] }>().Categories;
};
const addMeta = (CategoryId: number, Key: string, Value: string) =>
  api.call({ method: 'POST', url: META, tenant: acme, body: { CategoryId, Key, Value } });
const getMeta = (query: string) => api.call({ url: `${META}?${query}`, tenant: acme });
const deleteMeta = (query: string) =>
  api.call({ method: 'DELETE', url: `${META}?${query}`, tenant: acme });

/** A chain of categories, each the child of the one before. */
async function chain(length: number): Promise<CategoryJson[]> {
  const chainOf: CategoryJson[] = [];
  for (let i = 0; i < length; i++)
    chainOf.push(
      await createCategory(api, acme, {
        // Sibling names are unique (DuplicateCategoryName): each chain has its own.
        Name: unique(`Level ${i + 1}`),
        ParentCategoryId: chainOf[i - 1]?.Id ?? null,
      }),
    );
  return chainOf;
}

describe('POST /private/catalog/category', () => {
  it('creates a root category: 201 with Location', async () => {
    const response = await post({
      Name: 'Shoes',
      ShortDescription: 'All shoes',
      LongDescription: null,
    });
    expectStatus(response, 201);
    const category = response.json<CategoryJson>();
    expect(category).toEqual({
      Id: expect.any(Number) as number,
      Name: 'Shoes',
      ShortDescription: 'All shoes',
      LongDescription: null,
      ParentCategoryId: null,
      ParentCategoryName: null,
      SubCategoryCount: 0,
      CategoryMetadata: [],
    });
    expect(response.headers.location).toBe(`${URL}/${category.Id}`);
  });

  it('creates a subcategory and counts it in the parent', async () => {
    const parent = await createCategory(api, acme, { Name: 'Parent' });
    const child = await createCategory(api, acme, { Name: 'Child', ParentCategoryId: parent.Id });
    expect(child).toMatchObject({ ParentCategoryId: parent.Id, ParentCategoryName: 'Parent' });
    await createCategory(api, acme, { ParentCategoryId: parent.Id });
    expect((await getCategory(parent.Id)).SubCategoryCount).toBe(2);
    expect((await getCategory(child.Id)).SubCategoryCount).toBe(0);
  });

  it('refuses an unknown parent with 400', async () => {
    expectFieldError(await post({ Name: 'Orphan', ParentCategoryId: 999_999 }), 'ParentCategoryId');
  });

  it('ignores an Id in the body', async () => {
    const response = await post({ Id: 777_777, Name: 'Numbered' });
    expectStatus(response, 201);
    expect(response.json<CategoryJson>().Id).not.toBe(777_777);
  });

  it.each([
    ['Name missing', {}, 'Name'],
    ['Name empty', { Name: '' }, 'Name'],
    ['Name over 256', { Name: 'n'.repeat(257) }, 'Name'],
    [
      'ShortDescription over 4000',
      { Name: 'x', ShortDescription: 'd'.repeat(4001) },
      'ShortDescription',
    ],
    ['ParentCategoryId 0', { Name: 'x', ParentCategoryId: 0 }, 'ParentCategoryId'],
    ['ParentCategoryId text', { Name: 'x', ParentCategoryId: 'root' }, 'ParentCategoryId'],
  ])('refuses %s with 400', async (_case, body, field) => {
    expectFieldError(await post(body), field);
  });

  it('refuses unknown fields', async () => {
    expectUnknownField(await post({ Name: 'x', Slug: 'x' }), 'Slug');
  });

  it('ignores the read-only fields of a fetched category sent as a new one', async () => {
    const response = await post({
      Name: 'Copy',
      ParentCategoryName: 'Elsewhere',
      SubCategoryCount: 3,
      CategoryMetadata: [{ Key: 'season', Value: 'summer' }],
    });
    expectStatus(response, 201);
    expect(response.json()).toMatchObject({
      Name: 'Copy',
      ParentCategoryId: null,
      ParentCategoryName: null,
      SubCategoryCount: 0,
      CategoryMetadata: [],
    });
  });
});

describe('GET /private/catalog/category/{id}', () => {
  it('returns the category with its metadata, ordered by key', async () => {
    const category = await createCategory(api, acme);
    expectStatus(await addMeta(category.Id, 'season', 'summer'), 201);
    expectStatus(await addMeta(category.Id, 'colour', 'blue'), 201);
    expect(await getCategory(category.Id)).toEqual({
      ...category,
      CategoryMetadata: [
        { Key: 'colour', Value: 'blue' },
        { Key: 'season', Value: 'summer' },
      ],
    });
  });

  it('answers 404 for an unknown category and 400 for a bad id', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
    expectFieldError(await fetch('x'), 'id');
  });
});

describe('PUT /private/catalog/category/{id}', () => {
  it('replaces the fields; those left out are cleared and it becomes a root', async () => {
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, {
      ShortDescription: 'short',
      LongDescription: 'long',
      ParentCategoryId: parent.Id,
    });
    const response = await put(category.Id, { Name: 'Replaced' });
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      ...category,
      Name: 'Replaced',
      ShortDescription: null,
      LongDescription: null,
      ParentCategoryId: null,
      ParentCategoryName: null,
    });
    expect((await getCategory(parent.Id)).SubCategoryCount).toBe(0);
  });

  it('moves a category under another parent', async () => {
    const [a, b] = [await createCategory(api, acme), await createCategory(api, acme)];
    const child = await createCategory(api, acme, { ParentCategoryId: a.Id });
    const response = await put(child.Id, {
      Id: child.Id,
      Name: child.Name,
      ParentCategoryId: b.Id,
    });
    expectStatus(response, 200);
    expect(response.json<CategoryJson>()).toMatchObject({
      ParentCategoryId: b.Id,
      ParentCategoryName: b.Name,
    });
    expect((await getCategory(a.Id)).SubCategoryCount).toBe(0);
    expect((await getCategory(b.Id)).SubCategoryCount).toBe(1);
  });

  it('answers 409 when the category would become its own parent or ancestor', async () => {
    const [level1, level2, level3, level4] = await chain(4);
    const before = await getCategory(level1!.Id);
    expect(before.SubCategoryCount).toBe(1);
    expectError(
      await put(level1!.Id, { Name: 'x', ParentCategoryId: level1!.Id }),
      409,
      'CategoryCycle',
    );
    expectError(
      await put(level1!.Id, { Name: 'x', ParentCategoryId: level4!.Id }),
      409,
      'CategoryCycle',
    );
    expectError(
      await put(level2!.Id, { Name: 'x', ParentCategoryId: level3!.Id }),
      409,
      'CategoryCycle',
    );
    expect(await getCategory(level1!.Id)).toEqual(before);
    expect((await getCategory(level2!.Id)).ParentCategoryId).toBe(level1!.Id);
  });

  it('answers 400 for an unknown parent or a different Id, 404 for an unknown category', async () => {
    const category = await createCategory(api, acme);
    expectFieldError(
      await put(category.Id, { Name: 'x', ParentCategoryId: 999_999 }),
      'ParentCategoryId',
    );
    expectError(await put(category.Id, { Id: category.Id + 1, Name: 'x' }), 400, 'IdMismatch');
    expectFieldError(await put(category.Id, {}), 'Name');
    expectUnknownField(await put(category.Id, { Name: 'x', Icon: 'x' }), 'Icon');
    expectError(await put(999_999, { Name: 'x' }), 404, 'NotFound');
    expect(await getCategory(category.Id)).toEqual(category);
  });
});

describe('PATCH /private/catalog/category/{id}', () => {
  it('changes only the fields sent', async () => {
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, {
      ShortDescription: 'short',
      LongDescription: 'long',
      ParentCategoryId: parent.Id,
    });
    const response = await patch(category.Id, { Name: 'Patched' });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ ...category, Name: 'Patched' });
  });

  it('clears a nullable field sent as null; a null parent makes it a root', async () => {
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, {
      ShortDescription: 'short',
      LongDescription: 'long',
      ParentCategoryId: parent.Id,
    });
    const response = await patch(category.Id, { ShortDescription: null, ParentCategoryId: null });
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      ...category,
      ShortDescription: null,
      ParentCategoryId: null,
      ParentCategoryName: null,
    });
  });

  it('moves it to another parent and refuses a cycle with 409', async () => {
    const [level1, , level3] = await chain(3);
    const other = await createCategory(api, acme);
    expectStatus(await patch(level3!.Id, { ParentCategoryId: other.Id }), 200);
    expectError(await patch(level1!.Id, { ParentCategoryId: level1!.Id }), 409, 'CategoryCycle');
    expectError(await patch(other.Id, { ParentCategoryId: level3!.Id }), 409, 'CategoryCycle');
    expect((await getCategory(other.Id)).ParentCategoryId).toBeNull();
  });

  it('refuses a null Name, unknown fields and an unknown parent with 400; 404 if unknown', async () => {
    const category = await createCategory(api, acme);
    expectFieldError(await patch(category.Id, { Name: null }), 'Name');
    expectUnknownField(await patch(category.Id, { Colour: 'x' }), 'Colour');
    expectFieldError(await patch(category.Id, { ParentCategoryId: 999_999 }), 'ParentCategoryId');
    expectError(await patch(category.Id, { Id: category.Id + 1 }), 400, 'IdMismatch');
    expectError(await patch(999_999, { Name: 'x' }), 404, 'NotFound');
    expect(await getCategory(category.Id)).toEqual(category);
  });

  it('changes nothing for an empty body', async () => {
    const category = await createCategory(api, acme, { ShortDescription: 'kept' });
    const response = await patch(category.Id, {});
    expectStatus(response, 200);
    expect(response.json()).toEqual(category);
  });
});

describe('DELETE /private/catalog/category/{id}', () => {
  it('removes a category and its metadata', async () => {
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, { ParentCategoryId: parent.Id });
    expectStatus(await addMeta(category.Id, 'k', 'v'), 201);
    const response = await remove(category.Id);
    expectStatus(response, 204);
    expect(response.body).toBe('');
    expectError(await fetch(category.Id), 404, 'NotFound');
    expectError(await getMeta(`categoryId=${category.Id}`), 404, 'NotFound');
    expect((await getCategory(parent.Id)).SubCategoryCount).toBe(0);
    expectError(await remove(category.Id), 404, 'NotFound');
  });

  it('answers 409 while it has subcategories', async () => {
    const [parent, child] = await chain(2);
    const refused = await remove(parent!.Id);
    expectError(refused, 409, 'CategoryHasChildren');
    expect(expectError(refused, 409).FriendlyDescription).toBe(
      `The category “${parent!.Name}” has 1 subcategory; move or delete it first.`,
    );
    expectStatus(await remove(child!.Id), 204);
    expectStatus(await remove(parent!.Id), 204);
  });

  it('answers 409 while it has items', async () => {
    const category = await createCategory(api, acme);
    const item = await createItem(api, acme, { CategoryId: category.Id });
    const refused = await remove(category.Id);
    expectError(refused, 409, 'CategoryHasItems');
    // Named and counted, so that the person knows which items to move.
    expect(expectError(refused, 409).FriendlyDescription).toBe(
      `The category “${category.Name}” has 1 item; move it to another category first.`,
    );
    expectStatus(await fetch(category.Id), 200);
    expectStatus(
      await api.call({
        method: 'PATCH',
        url: `${CATALOG}/item/${item.Id}`,
        tenant: acme,
        body: { CategoryId: null },
      }),
      200,
    );
    expectStatus(await remove(category.Id), 204);
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('0'), 'id');
  });
});

describe('GET /private/catalog/categories', () => {
  it('answers the full tree of a 4-level hierarchy, children nested in CategoryTreeItems', async () => {
    const root = await createCategory(api, acme, { Name: 'Root', ShortDescription: 'r' });
    const a = await createCategory(api, acme, { Name: 'A', ParentCategoryId: root.Id });
    const b = await createCategory(api, acme, { Name: 'B', ParentCategoryId: root.Id });
    const a1 = await createCategory(api, acme, { Name: 'A1', ParentCategoryId: a.Id });
    const a2 = await createCategory(api, acme, { Name: 'A2', ParentCategoryId: a.Id });
    const a1x = await createCategory(api, acme, {
      Name: 'A1x',
      LongDescription: 'deepest',
      ParentCategoryId: a1.Id,
    });
    expectStatus(await addMeta(a1x.Id, 'depth', '4'), 201);
    expectStatus(await addMeta(root.Id, 'depth', '1'), 201);
    const node = (
      category: CategoryJson,
      children: CategoryTreeItemJson[] = [],
      metadata: MetadataJson[] = [],
    ): CategoryTreeItemJson => ({
      Id: category.Id,
      Name: category.Name,
      ShortDescription: category.ShortDescription,
      LongDescription: category.LongDescription,
      CategoryMetadata: metadata,
      CategoryTreeItems: children,
    });
    const roots = await tree();
    expect(roots.find((c) => c.Id === root.Id)).toEqual(
      node(
        root,
        [node(a, [node(a1, [node(a1x, [], [{ Key: 'depth', Value: '4' }])]), node(a2)]), node(b)],
        [{ Key: 'depth', Value: '1' }],
      ),
    );
    // Only roots at the top, in Id order; subcategories are not repeated there.
    const topIds = roots.map((c) => c.Id);
    expect(topIds).toEqual([...topIds].sort((x, y) => x - y));
    for (const child of [a, b, a1, a2, a1x]) expect(topIds).not.toContain(child.Id);
    expect((await getCategory(root.Id)).SubCategoryCount).toBe(2);
    expect((await getCategory(a.Id)).SubCategoryCount).toBe(2);
    expect((await getCategory(a1.Id)).SubCategoryCount).toBe(1);
    expect((await getCategory(a1x.Id)).SubCategoryCount).toBe(0);
  });

  it('nests a child under its parent also when the child has the lower Id', async () => {
    const older = await createCategory(api, acme, { Name: 'Older' });
    const newer = await createCategory(api, acme, { Name: 'Newer' });
    expectStatus(await patch(older.Id, { ParentCategoryId: newer.Id }), 200);
    const roots = await tree();
    expect(roots.map((c) => c.Id)).not.toContain(older.Id);
    expect(roots.find((c) => c.Id === newer.Id)?.CategoryTreeItems.map((c) => c.Id)).toEqual([
      older.Id,
    ]);
  });

  it('answers {Categories: []} for a tenant without categories', async () => {
    const empty = await api.createTenant('empty-tenant');
    const response = await api.call({ url: `${CATALOG}/categories`, tenant: empty });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Categories: [] });
  });
});

describe('category metadata', () => {
  it('POST adds a key (201) and 409s on a key the category has', async () => {
    const category = await createCategory(api, acme);
    const response = await addMeta(category.Id, 'material', 'leather');
    expectStatus(response, 201);
    expect(response.json()).toEqual({ CategoryId: category.Id, Key: 'material', Value: 'leather' });
    expectError(await addMeta(category.Id, 'material', 'suede'), 409, 'DuplicateMetadataKey');
    expect((await getMeta(`categoryId=${category.Id}`)).json()).toEqual([
      { Key: 'material', Value: 'leather' },
    ]);
  });

  it('POST answers 400 for an unknown category and for bad bodies', async () => {
    const category = await createCategory(api, acme);
    expectFieldError(await addMeta(999_999, 'k', 'v'), 'CategoryId');
    expectFieldError(await addMeta(category.Id, '', 'v'), 'Key');
    expectFieldError(await addMeta(category.Id, 'k'.repeat(257), 'v'), 'Key');
    expectFieldError(await addMeta(category.Id, 'k', 'v'.repeat(4001)), 'Value');
    expectFieldError(
      await api.call({
        method: 'POST',
        url: META,
        tenant: acme,
        body: { CategoryId: category.Id, Key: 'k' },
      }),
      'Value',
    );
    expectUnknownField(
      await api.call({
        method: 'POST',
        url: META,
        tenant: acme,
        body: { CategoryId: category.Id, Key: 'k', Value: 'v', Lang: 'en' },
      }),
      'Lang',
    );
  });

  it('GET lists the metadata by key; 404 for an unknown category, 400 without categoryId', async () => {
    const category = await createCategory(api, acme);
    expect((await getMeta(`categoryId=${category.Id}`)).json()).toEqual([]);
    await addMeta(category.Id, 'b', '2');
    await addMeta(category.Id, 'a', '1');
    const response = await getMeta(`categoryId=${category.Id}`);
    expectStatus(response, 200);
    expect(response.json()).toEqual([
      { Key: 'a', Value: '1' },
      { Key: 'b', Value: '2' },
    ]);
    expectError(await getMeta('categoryId=999999'), 404, 'NotFound');
    expectFieldError(await getMeta(''), 'categoryId');
    expectFieldError(await getMeta('categoryId=x'), 'categoryId');
  });

  it("PUT changes a key's value; 404 for an unknown key, 400 for an unknown category", async () => {
    const category = await createCategory(api, acme);
    await addMeta(category.Id, 'size', 'S');
    const put = (body: unknown) => api.call({ method: 'PUT', url: META, tenant: acme, body });
    const response = await put({ CategoryId: category.Id, Key: 'size', Value: 'M' });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ CategoryId: category.Id, Key: 'size', Value: 'M' });
    expect((await getCategory(category.Id)).CategoryMetadata).toEqual([
      { Key: 'size', Value: 'M' },
    ]);
    expectError(await put({ CategoryId: category.Id, Key: 'colour', Value: 'x' }), 404, 'NotFound');
    expectFieldError(await put({ CategoryId: 999_999, Key: 'size', Value: 'x' }), 'CategoryId');
  });

  it('DELETE removes one key, or all keys without metadataKey', async () => {
    const category = await createCategory(api, acme);
    for (const key of ['a', 'b', 'c']) await addMeta(category.Id, key, key);
    expectStatus(await deleteMeta(`categoryId=${category.Id}&metadataKey=b`), 204);
    expect((await getMeta(`categoryId=${category.Id}`)).json()).toEqual([
      { Key: 'a', Value: 'a' },
      { Key: 'c', Value: 'c' },
    ]);
    expectError(await deleteMeta(`categoryId=${category.Id}&metadataKey=b`), 404, 'NotFound');
    expectStatus(await deleteMeta(`categoryId=${category.Id}`), 204);
    expect((await getMeta(`categoryId=${category.Id}`)).json()).toEqual([]);
  });

  it('DELETE answers 404 for an unknown category and 400 without categoryId', async () => {
    expectError(await deleteMeta('categoryId=999999'), 404, 'NotFound');
    expectFieldError(await deleteMeta('metadataKey=a'), 'categoryId');
  });

  it('keeps the metadata of each category apart', async () => {
    const [a, b] = [await createCategory(api, acme), await createCategory(api, acme)];
    await addMeta(a.Id, 'k', 'of a');
    expectStatus(await addMeta(b.Id, 'k', 'of b'), 201);
    expectStatus(await deleteMeta(`categoryId=${a.Id}`), 204);
    expect((await getMeta(`categoryId=${b.Id}`)).json()).toEqual([{ Key: 'k', Value: 'of b' }]);
  });
});
