// POST /private/catalog/brand|category/{id}/history/{version}/restore (docs/api.md, "Restoring"):
// a brand's name, a category's name, descriptions, parent and metadata back to a version of
// their history, as one new change that the history records as restored.
import { describe, expect, it } from 'vitest';
import { etagOf, expectError, expectStatus } from '../../../support/expectations.ts';
import { useTenant, useTestApi } from '../../../support/test-api.ts';
import {
  CATALOG,
  consumerToken,
  createBrand,
  createCategory,
  unique,
  type BrandJson,
  type CategoryJson,
} from '../catalog-fixtures.ts';
import { catalogEditor, entriesOf, privateApp, restore } from './restore-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

async function write(
  method: 'PUT' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  token?: string,
): Promise<void> {
  const response = await api.call({
    method,
    url: `${CATALOG}/${path}`,
    tenant: acme,
    ...(body !== undefined ? { body } : {}),
    ...(token ? { token } : {}),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

const fetch = (path: string) => api.call({ url: `${CATALOG}/${path}`, tenant: acme });

describe('POST /private/catalog/brand/{id}/history/{version}/restore', () => {
  it('gives the brand back its name, as a restored change of the caller', async () => {
    const name = unique('Brand');
    const brand = await createBrand(api, acme, name);
    const app = await privateApp(api, acme);
    const editor = await catalogEditor(api, acme);
    await write('PUT', `brand/${brand.Id}`, { Name: unique('Renamed') }, app.token);
    await write('PUT', `brand/${brand.Id}`, { Name: unique('Again') }, editor.token);
    const response = await restore(api, acme, 'brand', brand.Id, 1, { token: app.token });
    expectStatus(response, 200);
    expect(response.json<BrandJson>()).toEqual({ Id: brand.Id, Name: name });
    const fetched = await fetch(`brand/${brand.Id}`);
    expect(fetched.json()).toEqual(response.json());
    expect(etagOf(response)).toBe(etagOf(fetched));
    const entries = await entriesOf(api, acme, 'brand', brand.Id);
    expect(entries.map((e) => [e.version, e.action, e.actor.Type])).toEqual([
      [1, 'created', 'App'],
      [2, 'updated', 'App'],
      [3, 'updated', 'Member'],
      [4, 'restored', 'App'],
    ]);
    expect(entries[3]!.actor).toEqual({ Type: 'App', Id: app.id, Name: app.name });
    expect(entries[3]!.context.Restore).toEqual({
      Resource: 'brand',
      ResourceId: String(brand.Id),
      FromVersion: 1,
    });
    expect(entries[3]!.data).toEqual({ Id: brand.Id, Name: name });
  });

  it('409 DuplicateBrandName when another brand has taken the name since; no entry', async () => {
    const name = unique('Brand');
    const brand = await createBrand(api, acme, name);
    await write('PUT', `brand/${brand.Id}`, { Name: unique('Renamed') });
    await createBrand(api, acme, name);
    expectError(await restore(api, acme, 'brand', brand.Id, 1), 409, 'DuplicateBrandName');
    expect(await entriesOf(api, acme, 'brand', brand.Id)).toHaveLength(2);
  });

  it('412 with a stale If-Match; 409 HistoryConflict with a stale ExpectedVersion', async () => {
    const brand = await createBrand(api, acme);
    const stale = etagOf(await fetch(`brand/${brand.Id}`));
    await write('PUT', `brand/${brand.Id}`, { Name: unique('Renamed') });
    const options = { headers: { 'if-match': stale } };
    expectError(await restore(api, acme, 'brand', brand.Id, 1, options), 412, 'PreconditionFailed');
    const body = { ExpectedVersion: 1 };
    expectError(await restore(api, acme, 'brand', brand.Id, 1, { body }), 409, 'HistoryConflict');
    expect(await entriesOf(api, acme, 'brand', brand.Id)).toHaveLength(2);
  });

  it('404 for a brand or a version that does not exist, or a brand of another tenant; 403 for a Consumer app', async () => {
    const brand = await createBrand(api, acme);
    expectError(await restore(api, acme, 'brand', 999_999, 1), 404, 'NotFound');
    expectError(await restore(api, acme, 'brand', brand.Id, 5), 404, 'HistoryVersionNotFound');
    expectError(await restore(api, globex, 'brand', brand.Id, 1), 404, 'NotFound');
    const token = await consumerToken(api, acme);
    expectError(
      await restore(api, acme, 'brand', brand.Id, 1, { token }),
      403,
      'InsufficientScope',
    );
  });
});

describe('POST /private/catalog/category/{id}/history/{version}/restore', () => {
  const metadata = (categoryId: number, Key: string, Value: string) =>
    write('POST', 'categorymetadata', { CategoryId: categoryId, Key, Value });

  it('gives the category back its name, descriptions, parent and metadata, as a restored change', async () => {
    const [home, garden] = await Promise.all([
      createCategory(api, acme),
      createCategory(api, acme),
    ]);
    const name = unique('Lamps');
    const lamps = await createCategory(api, acme, {
      Name: name,
      ShortDescription: 'Lamps',
      LongDescription: 'Lamps of every kind',
      ParentCategoryId: home.Id,
    });
    await metadata(lamps.Id, 'season', 'winter');
    await metadata(lamps.Id, 'aisle', '4');
    const version = (await entriesOf(api, acme, 'category', lamps.Id)).at(-1)!.version;
    const before = (await fetch(`category/${lamps.Id}`)).json<CategoryJson>();
    const editor = await catalogEditor(api, acme);
    await write(
      'PUT',
      `category/${lamps.Id}`,
      { Name: unique('Lights'), ShortDescription: null, ParentCategoryId: garden.Id },
      editor.token,
    );
    await api.call({
      method: 'DELETE',
      url: `${CATALOG}/categorymetadata?categoryId=${lamps.Id}&metadataKey=aisle`,
      tenant: acme,
    });
    await write('PUT', 'categorymetadata', { CategoryId: lamps.Id, Key: 'season', Value: 'all' });
    await metadata(lamps.Id, 'colour', 'warm');

    const response = await restore(api, acme, 'category', lamps.Id, version, {
      token: editor.token,
    });
    expectStatus(response, 200);
    expect(response.json()).toEqual(before);
    expect(before).toMatchObject({
      Name: name,
      ShortDescription: 'Lamps',
      ParentCategoryId: home.Id,
      CategoryMetadata: [
        { Key: 'aisle', Value: '4' },
        { Key: 'season', Value: 'winter' },
      ],
    });
    const fetched = await fetch(`category/${lamps.Id}`);
    expect(fetched.json()).toEqual(before);
    expect(etagOf(response)).toBe(etagOf(fetched));
    const last = (await entriesOf(api, acme, 'category', lamps.Id)).at(-1)!;
    expect(last.action).toBe('restored');
    expect(last.actor).toEqual({ Type: 'Member', Id: editor.id, Name: editor.username });
    expect(last.context.Restore).toEqual({
      Resource: 'category',
      ResourceId: String(lamps.Id),
      FromVersion: version,
    });
    const { ParentCategoryName: _n, SubCategoryCount: _c, ...data } = before;
    expect(last.data).toEqual(data);
  });

  it('409 CategoryCycle when the old parent is under the category now; no entry', async () => {
    const parent = await createCategory(api, acme);
    const child = await createCategory(api, acme, { ParentCategoryId: parent.Id });
    await write('PUT', `category/${child.Id}`, { Name: child.Name, ParentCategoryId: null });
    await write('PUT', `category/${parent.Id}`, { Name: parent.Name, ParentCategoryId: child.Id });
    const entries = (await entriesOf(api, acme, 'category', child.Id)).length;
    expectError(await restore(api, acme, 'category', child.Id, 1), 409, 'CategoryCycle');
    expect(await entriesOf(api, acme, 'category', child.Id)).toHaveLength(entries);
    expect((await fetch(`category/${child.Id}`)).json<CategoryJson>().ParentCategoryId).toBeNull();
  });

  it('409 RestoreReferenceMissing when the old parent was deleted since; no entry', async () => {
    const parent = await createCategory(api, acme);
    const child = await createCategory(api, acme, { ParentCategoryId: parent.Id });
    await write('PUT', `category/${child.Id}`, { Name: child.Name, ParentCategoryId: null });
    await write('DELETE', `category/${parent.Id}`);
    const entries = (await entriesOf(api, acme, 'category', child.Id)).length;
    expectError(
      await restore(api, acme, 'category', child.Id, 1),
      409,
      'RestoreReferenceMissing',
      'ParentCategoryId',
    );
    expect(await entriesOf(api, acme, 'category', child.Id)).toHaveLength(entries);
  });

  it('409 DuplicateCategoryName when a sibling has taken the name since', async () => {
    const name = unique('Category');
    const category = await createCategory(api, acme, { Name: name });
    await write('PUT', `category/${category.Id}`, { Name: unique('Renamed') });
    await createCategory(api, acme, { Name: name });
    expectError(await restore(api, acme, 'category', category.Id, 1), 409, 'DuplicateCategoryName');
  });

  it('412, 409 HistoryConflict, 404s, cross-tenant 404 and 403 for a Consumer app', async () => {
    const category = await createCategory(api, acme);
    const stale = etagOf(await fetch(`category/${category.Id}`));
    await write('PUT', `category/${category.Id}`, { Name: unique('Renamed') });
    const ifMatch = { headers: { 'if-match': stale } };
    expectError(await restore(api, acme, 'category', category.Id, 1, ifMatch), 412);
    const body = { ExpectedVersion: 1 };
    expectError(
      await restore(api, acme, 'category', category.Id, 1, { body }),
      409,
      'HistoryConflict',
    );
    expectError(await restore(api, acme, 'category', 999_999, 1), 404, 'NotFound');
    expectError(
      await restore(api, acme, 'category', category.Id, 9),
      404,
      'HistoryVersionNotFound',
    );
    expectError(await restore(api, globex, 'category', category.Id, 1), 404, 'NotFound');
    const token = await consumerToken(api, acme);
    expectError(await restore(api, acme, 'category', category.Id, 1, { token }), 403);
    expect(await entriesOf(api, acme, 'category', category.Id)).toHaveLength(2);
  });
});
