// Tags (contract §5.3) and item–tag mappings: 404 for an unknown item or tag, 409 for a
// duplicate mapping, 409 when deleting a tag items carry.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createItem,
  createTag,
  getItem,
  unique,
  type Page,
  type TagJson,
} from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const URL = `${CATALOG}/tag`;
const post = (body: unknown) => api.call({ method: 'POST', url: URL, tenant: acme, body });
const put = (id: number | string, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const fetch = (id: number | string) => api.call({ url: `${URL}/${id}`, tenant: acme });
const remove = (id: number | string) =>
  api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme });
const map = (body: unknown) =>
  api.call({ method: 'POST', url: `${CATALOG}/itemtagmapping`, tenant: acme, body });
const mappings = (query: string) =>
  api.call({ url: `${CATALOG}/itemtagmappings?${query}`, tenant: acme });
const unmap = (query: string) =>
  api.call({ method: 'DELETE', url: `${CATALOG}/itemtagmapping?${query}`, tenant: acme });

describe('POST /private/catalog/tag', () => {
  it('creates a tag: 201 with Location', async () => {
    const name = unique('Summer');
    const response = await post({ Name: name, Description: 'Hot items' });
    expectStatus(response, 201);
    const tag = response.json<TagJson>();
    expect(tag).toEqual({ Id: expect.any(Number) as number, Name: name, Description: 'Hot items' });
    expect(response.headers.location).toBe(`${URL}/${tag.Id}`);
    expect((await post({ Name: unique('Bare') })).json<TagJson>().Description).toBeNull();
    expect(
      (await post({ Name: unique('Null'), Description: null })).json<TagJson>().Description,
    ).toBeNull();
  });

  it('refuses a name another tag has, in any case, with 409', async () => {
    const name = unique('Sale');
    await createTag(api, acme, { Name: name });
    expectError(await post({ Name: name.toUpperCase() }), 409, 'DuplicateTagName');
  });

  it.each([
    ['Name missing', {}, 'Name'],
    ['Name empty', { Name: '' }, 'Name'],
    ['Name over 256', { Name: 'n'.repeat(257) }, 'Name'],
    ['Description over 4000', { Name: 'x', Description: 'd'.repeat(4001) }, 'Description'],
  ])('refuses %s with 400', async (_case, body, field) => {
    expectFieldError(await post(body), field);
  });

  it('refuses unknown fields with 400 naming them', async () => {
    expectUnknownField(await post({ Name: unique('x'), TagMetadata: [] }), 'TagMetadata');
  });
});

describe('GET /private/catalog/tag/{id}', () => {
  it('returns the tag', async () => {
    const tag = await createTag(api, acme);
    const response = await fetch(tag.Id);
    expectStatus(response, 200);
    expect(response.json()).toEqual(tag);
  });

  it('answers 404 for an unknown tag and 400 for a bad id', async () => {
    expectError(await fetch(999_999), 404, 'NotFound');
    expectFieldError(await fetch('x'), 'id');
  });
});

describe('PUT /private/catalog/tag/{id}', () => {
  it('replaces name and description (a description left out is cleared)', async () => {
    const tag = await createTag(api, acme, { Description: 'old' });
    const name = unique('Renamed');
    const response = await put(tag.Id, { Id: tag.Id, Name: name });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Id: tag.Id, Name: name, Description: null });
  });

  it('shows the new name on the items that carry it', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme, { Tags: [{ Id: tag.Id }] });
    const name = unique('Shown');
    await put(tag.Id, { Name: name, Description: 'd' });
    expect((await getItem(api, acme, item.Id)).Tags).toEqual([
      { Id: tag.Id, Name: name, Description: 'd' },
    ]);
  });

  it('answers 409 for a taken name, 400 for a different Id, 404 for an unknown tag', async () => {
    const taken = await createTag(api, acme);
    const tag = await createTag(api, acme);
    expectError(await put(tag.Id, { Name: taken.Name }), 409, 'DuplicateTagName');
    expectError(await put(tag.Id, { Id: tag.Id + 1, Name: 'x' }), 400, 'IdMismatch');
    expectFieldError(await put(tag.Id, { Description: 'x' }), 'Name');
    expectError(await put(999_999, { Name: unique('x') }), 404, 'NotFound');
    expect((await fetch(tag.Id)).json()).toEqual(tag);
  });
});

describe('DELETE /private/catalog/tag/{id}', () => {
  it('deletes an unused tag', async () => {
    const tag = await createTag(api, acme);
    expectStatus(await remove(tag.Id), 204);
    expectError(await fetch(tag.Id), 404, 'NotFound');
    expectError(await remove(tag.Id), 404, 'NotFound');
  });

  it('answers 409 while items carry it, and deletes it once unmapped', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme);
    expectStatus(await map({ ItemId: item.Id, TagId: tag.Id }), 201);
    expectError(await remove(tag.Id), 409, 'TagInUse');
    expectStatus(await unmap(`itemId=${item.Id}&tagId=${tag.Id}`), 204);
    expectStatus(await remove(tag.Id), 204);
  });

  it('answers 400 for a bad id', async () => {
    expectFieldError(await remove('-2'), 'id');
  });
});

describe('GET /private/catalog/tags', () => {
  it('pages the tags in Id order with TotalCount', async () => {
    for (let i = 0; i < 3; i++) await createTag(api, acme);
    const all = (await api.call({ url: `${CATALOG}/tags?take=1000`, tenant: acme })).json<
      Page<TagJson>
    >();
    expect(all.TotalCount).toBe(all.Results.length);
    const page = await api.call({ url: `${CATALOG}/tags?skip=1&take=2`, tenant: acme });
    expectStatus(page, 200);
    expect(page.json()).toEqual({ Results: all.Results.slice(1, 3), TotalCount: all.TotalCount });
  });

  it('refuses bad paging with 400', async () => {
    expectFieldError(await api.call({ url: `${CATALOG}/tags?skip=-1`, tenant: acme }), 'skip');
  });
});

describe('POST /private/catalog/itemtagmapping', () => {
  it('maps a tag to an item: 201, and the item lists the tag', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme);
    const response = await map({ ItemId: item.Id, TagId: tag.Id });
    expectStatus(response, 201);
    expect(response.json()).toEqual({ ItemId: item.Id, TagId: tag.Id });
    expect((await getItem(api, acme, item.Id)).Tags).toEqual([tag]);
  });

  it('answers 409 for a mapping that exists', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme, { Tags: [{ Id: tag.Id }] });
    expectError(await map({ ItemId: item.Id, TagId: tag.Id }), 409, 'DuplicateItemTagMapping');
  });

  it('answers 404 for an unknown item or tag', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme);
    expectError(await map({ ItemId: 999_999, TagId: tag.Id }), 404, 'NotFound');
    expectError(await map({ ItemId: item.Id, TagId: 999_999 }), 404, 'NotFound');
    expect((await mappings(`itemId=${item.Id}`)).json<Page<unknown>>().Results).toEqual([]);
  });

  it('answers 400 for bad bodies', async () => {
    expectFieldError(await map({ ItemId: 1 }), 'TagId');
    expectFieldError(await map({ ItemId: 0, TagId: 1 }), 'ItemId');
    expectUnknownField(await map({ ItemId: 1, TagId: 1, Weight: 1 }), 'Weight');
  });
});

describe('GET /private/catalog/itemtagmappings', () => {
  it('lists the mappings of one item or of one tag', async () => {
    const [t1, t2] = [await createTag(api, acme), await createTag(api, acme)];
    const [i1, i2] = [await createItem(api, acme), await createItem(api, acme)];
    for (const [ItemId, TagId] of [
      [i1.Id, t1.Id],
      [i1.Id, t2.Id],
      [i2.Id, t1.Id],
    ])
      expectStatus(await map({ ItemId, TagId }), 201);
    const byItem = await mappings(`itemId=${i1.Id}`);
    expectStatus(byItem, 200);
    expect(byItem.json()).toEqual({
      Results: [
        { ItemId: i1.Id, TagId: t1.Id },
        { ItemId: i1.Id, TagId: t2.Id },
      ],
      TotalCount: 2,
    });
    expect((await mappings(`tagId=${t1.Id}`)).json<Page<unknown>>().Results).toEqual([
      { ItemId: i1.Id, TagId: t1.Id },
      { ItemId: i2.Id, TagId: t1.Id },
    ]);
    expect((await mappings('tagId=999999')).json<Page<unknown>>().Results).toEqual([]);
  });

  it('answers a page at a time, with the count of all', async () => {
    const tag = await createTag(api, acme);
    const items = [];
    for (let i = 0; i < 5; i++) items.push(await createItem(api, acme));
    for (const item of items) expectStatus(await map({ ItemId: item.Id, TagId: tag.Id }), 201);
    const page = await mappings(`tagId=${tag.Id}&skip=1&take=2`);
    expect(page.json()).toEqual({
      Results: items.slice(1, 3).map((item) => ({ ItemId: item.Id, TagId: tag.Id })),
      TotalCount: 5,
    });
    expectFieldError(await mappings(`tagId=${tag.Id}&take=0`), 'take');
    expectFieldError(await mappings(`tagId=${tag.Id}&take=1001`), 'take');
    expectFieldError(await mappings(`tagId=${tag.Id}&skip=-1`), 'skip');
  });

  it('answers 400 unless exactly one of itemId and tagId is given', async () => {
    expectError(await mappings(''), 400, 'ValidationFailed');
    expectError(await mappings('itemId=1&tagId=1'), 400, 'ValidationFailed');
    expectFieldError(await mappings('itemId=x'), 'itemId');
  });
});

describe('DELETE /private/catalog/itemtagmapping', () => {
  it('removes a tag from an item', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme, { Tags: [{ Id: tag.Id }] });
    const response = await unmap(`itemId=${item.Id}&tagId=${tag.Id}`);
    expectStatus(response, 204);
    expect((await getItem(api, acme, item.Id)).Tags).toEqual([]);
    expectError(await unmap(`itemId=${item.Id}&tagId=${tag.Id}`), 404, 'NotFound');
  });

  it('answers 400 without both ids', async () => {
    expectFieldError(await unmap('itemId=1'), 'tagId');
    expectFieldError(await unmap('tagId=1'), 'itemId');
  });
});

describe('tags in item bodies', () => {
  it('replaces the item tags by Id (duplicates once), ignoring the read-only fields', async () => {
    const [t1, t2] = [await createTag(api, acme), await createTag(api, acme)];
    const item = await createItem(api, acme, {
      Tags: [{ Id: t2.Id, Name: 'ignored', Description: null }, { Id: t1.Id }, { Id: t2.Id }],
    });
    expect(item.Tags).toEqual([t1, t2]);
    const response = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${item.Id}`,
      tenant: acme,
      body: { Tags: [{ Id: t1.Id }] },
    });
    expect(response.json<{ Tags: TagJson[] }>().Tags).toEqual([t1]);
    expect((await mappings(`itemId=${item.Id}`)).json<Page<unknown>>().Results).toEqual([
      { ItemId: item.Id, TagId: t1.Id },
    ]);
  });

  it('refuses an unknown tag with 400 naming its place', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme);
    const response = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${item.Id}`,
      tenant: acme,
      body: { Tags: [{ Id: tag.Id }, { Id: 999_999 }] },
    });
    expectFieldError(response, 'Tags.1.Id');
    expect((await getItem(api, acme, item.Id)).Tags).toEqual([]);
  });

  it('drops the mappings of a deleted item, so its tags can go', async () => {
    const tag = await createTag(api, acme);
    const item = await createItem(api, acme, { Tags: [{ Id: tag.Id }] });
    expectStatus(
      await api.call({ method: 'DELETE', url: `${CATALOG}/item/${item.Id}`, tenant: acme }),
      204,
    );
    expect((await mappings(`tagId=${tag.Id}`)).json<Page<unknown>>().Results).toEqual([]);
    expectStatus(await remove(tag.Id), 204);
  });
});
