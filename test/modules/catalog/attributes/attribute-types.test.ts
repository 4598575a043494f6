// Dynamic attribute types (contract §5.3) `{Id, Description}`: create, fetch, list, update,
// patch, delete (409 while items use it), and the values of a type that items use.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createItem,
  getItem,
  unique,
  type AttributeTypeJson,
  type DynamicAttributeJson,
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

const URL = `${CATALOG}/dynamicattributetypes`;
const post = (body: unknown) => api.call({ method: 'POST', url: URL, tenant: acme, body });
const put = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const patch = (id: number | string, body: unknown) =>
  api.call({ method: 'PATCH', url: `${URL}/${id}`, tenant: acme, body });
const fetch = (id: number | string) => api.call({ url: `${URL}/${id}`, tenant: acme });
const remove = (id: number | string) =>
  api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme });
const values = (id: number | string) =>
  api.call({ url: `${URL}/${id}/dynamicattributes`, tenant: acme });
const setAttributes = async (itemId: number, body: unknown) => {
  const response = await api.call({
    method: 'PUT',
    url: `${CATALOG}/items/${itemId}/dynamicattributes`,
    tenant: acme,
    body,
  });
  expectStatus(response, 200);
  return response.json<DynamicAttributeJson[]>();
};

describe('POST /private/catalog/dynamicattributetypes', () => {
  it('creates a type: 201 with Location', async () => {
    const description = unique('Colour');
    const response = await post({ Description: description });
    expectStatus(response, 201);
    const created = response.json<AttributeTypeJson>();
    expect(created).toEqual({ Id: expect.any(Number) as number, Description: description });
    expect(response.headers.location).toBe(`${URL}/${created.Id}`);
  });

  it('refuses a description another type has, in any case, with 409', async () => {
    const description = unique('Size');
    await createAttributeType(api, acme, description);
    expectError(await post({ Description: description }), 409, 'DuplicateAttributeType');
    expectError(
      await post({ Description: description.toUpperCase() }),
      409,
      'DuplicateAttributeType',
    );
  });

  it.each([
    ['Description missing', {}, 'Description'],
    ['Description empty', { Description: '' }, 'Description'],
    ['Description over 256', { Description: 'd'.repeat(257) }, 'Description'],
  ])('refuses %s with 400', async (_case, body, field) => {
    expectFieldError(await post(body), field);
  });

  it('refuses unknown fields with 400 naming them', async () => {
    expectUnknownField(await post({ Description: unique('x'), Values: [] }), 'Values');
  });
});

describe('GET /private/catalog/dynamicattributetypes/{id}', () => {
  it('returns the type', async () => {
    const type = await createAttributeType(api, acme);
    const response = await fetch(type.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual(type);
  });

  it('answers 404 for an unknown type and 400 for a bad id', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
    expectFieldError(await fetch('x'), 'id');
  });
});

describe('GET /private/catalog/dynamicattributetypes', () => {
  it('pages the types in Id order with TotalCount', async () => {
    for (let i = 0; i < 3; i++) await createAttributeType(api, acme);
    const all = (await api.call({ url: `${URL}?take=1000`, tenant: acme })).json<
      Page<AttributeTypeJson>
    >();
    expect(all.TotalCount).toBe(all.Results.length);
    const page = await api.call({ url: `${URL}?skip=1&take=2`, tenant: acme });
    expectStatus(page, 200);
    expect(page.json()).toEqual({ Results: all.Results.slice(1, 3), TotalCount: all.TotalCount });
  });

  it('refuses bad paging with 400', async () => {
    expectFieldError(await api.call({ url: `${URL}?take=0`, tenant: acme }), 'take');
  });
});

describe('PUT /private/catalog/dynamicattributetypes/{id}', () => {
  it('updates the description, and items show the new TypeName', async () => {
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      DynamicAttributes: [{ TypeId: type.Id, Value: 'v' }],
    });
    const description = unique('Renamed');
    const response = await put(type.Id, { Description: description });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Id: type.Id, Description: description });
    expect((await getItem(api, acme, item.Id)).DynamicAttributes[0]!.TypeName).toBe(description);
  });

  it('accepts its own Id in the body and refuses another with 400', async () => {
    const type = await createAttributeType(api, acme);
    expectStatus(await put(type.Id, { Id: type.Id, Description: unique('Same') }), 200);
    expectError(
      await put(type.Id, { Id: type.Id + 1, Description: unique('x') }),
      400,
      'IdMismatch',
    );
  });

  it("refuses another type's description with 409, but keeps its own", async () => {
    const taken = await createAttributeType(api, acme);
    const type = await createAttributeType(api, acme);
    expectError(
      await put(type.Id, { Description: taken.Description }),
      409,
      'DuplicateAttributeType',
    );
    expectStatus(await put(type.Id, { Description: type.Description }), 200);
  });

  it('answers 404 for an unknown type and 400 for a bad body', async () => {
    expectError(await put(999_999, { Description: unique('x') }), 404, 'NotFound');
    const type = await createAttributeType(api, acme);
    expectFieldError(await put(type.Id, {}), 'Description');
    expectUnknownField(await put(type.Id, { Description: 'x', Kind: 1 }), 'Kind');
  });
});

describe('PATCH /private/catalog/dynamicattributetypes/{id}', () => {
  it('changes the description when sent and nothing otherwise', async () => {
    const type = await createAttributeType(api, acme);
    const unchanged = await patch(type.Id, {});
    expectStatus(unchanged, 200);
    expect(unchanged.json()).toEqual(type);
    const description = unique('Patched');
    const response = await patch(type.Id, { Description: description });
    expect(response.json()).toEqual({ Id: type.Id, Description: description });
  });

  it('answers 404, 409, 400 like PUT', async () => {
    expectError(await patch(999_999, { Description: unique('x') }), 404, 'NotFound');
    expectError(await patch(999_999, {}), 404, 'NotFound');
    const taken = await createAttributeType(api, acme);
    const type = await createAttributeType(api, acme);
    expectError(
      await patch(type.Id, { Description: taken.Description }),
      409,
      'DuplicateAttributeType',
    );
    expectError(await patch(type.Id, { Id: type.Id + 1 }), 400, 'IdMismatch');
    expectFieldError(await patch(type.Id, { Description: '' }), 'Description');
    expectUnknownField(await patch(type.Id, { Name: 'x' }), 'Name');
  });
});

describe('DELETE /private/catalog/dynamicattributetypes/{id}', () => {
  it('deletes an unused type', async () => {
    const type = await createAttributeType(api, acme);
    const response = await remove(type.Id);
    expectStatus(response, 204);
    expectError(await fetch(type.Id), 404, 'NotFound');
    expectError(await remove(type.Id), 404, 'NotFound');
  });

  it('answers 409 while items use it, and deletes it (with its values) once they do not', async () => {
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      DynamicAttributes: [{ TypeId: type.Id, Value: 'v' }],
    });
    expectError(await remove(type.Id), 409, 'AttributeTypeInUse');
    expect((await getItem(api, acme, item.Id)).DynamicAttributes).toHaveLength(1);
    await setAttributes(item.Id, []);
    expectStatus(await remove(type.Id), 204);
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('1.5'), 'id');
  });
});

describe('GET /private/catalog/dynamicattributetypes/{id}/dynamicattributes', () => {
  it('lists the distinct values items use, with their TypeValueId', async () => {
    const type = await createAttributeType(api, acme);
    const [a, b, c] = [
      await createItem(api, acme),
      await createItem(api, acme),
      await createItem(api, acme),
    ];
    const [red] = await setAttributes(a.Id, [{ TypeId: type.Id, Value: 'Red' }]);
    await setAttributes(b.Id, [{ TypeId: type.Id, Value: 'Red' }]);
    const [blue] = await setAttributes(c.Id, [{ TypeId: type.Id, Value: 'Blue' }]);
    const response = await values(type.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual([red, blue]);
    expect(red).toEqual({
      TypeId: type.Id,
      TypeValueId: expect.any(Number) as number,
      Value: 'Red',
      TypeName: type.Description,
    });
  });

  it('leaves out values no item uses any more', async () => {
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    await setAttributes(item.Id, [{ TypeId: type.Id, Value: 'Old' }]);
    const [current] = await setAttributes(item.Id, [{ TypeId: type.Id, Value: 'New' }]);
    expect((await values(type.Id)).json()).toEqual([current]);
  });

  it('answers [] for an unused type, 404 for an unknown one and 400 for a bad id', async () => {
    const type = await createAttributeType(api, acme);
    expect((await values(type.Id)).json()).toEqual([]);
    expectError(await values(999_999), 404, 'NotFound');
    expectFieldError(await values('abc'), 'id');
  });
});
