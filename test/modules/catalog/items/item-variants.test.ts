// Variant groups (contract §5.3): group, ungroup, move, DefaultItemId in item bodies, and what
// deleting items does to a group. An item is stand-alone (DefaultItemId null), a default item
// (DefaultItemId = its Id) or a variant (DefaultItemId = its default item's Id).
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createItem,
  getItem,
  itemEtag,
  type ItemJson,
  type VariantGroupJson,
} from '../catalog-fixtures.ts';
import {
  etagOf,
  expectError,
  expectFieldError,
  expectStatus,
} from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const items = async (n: number) => {
  const created: ItemJson[] = [];
  for (let i = 0; i < n; i++) created.push(await createItem(api, acme));
  return created.map((item) => item.Id);
};
const group = (defaultId: number | string, ids: unknown) =>
  api.call({ method: 'POST', url: `${CATALOG}/items/${defaultId}/group`, tenant: acme, body: ids });
const move = (defaultId: number | string, ids: unknown) =>
  api.call({ method: 'POST', url: `${CATALOG}/items/${defaultId}/move`, tenant: acme, body: ids });
const ungroup = (id: number | string) =>
  api.call({ method: 'POST', url: `${CATALOG}/items/${id}/ungroup`, tenant: acme });
const groupOk = async (defaultId: number, ids: number[]) => {
  const response = await group(defaultId, ids);
  expectStatus(response, 200);
  return response.json<VariantGroupJson>();
};
/** The DefaultItemId of each item, in order. */
const defaults = async (...ids: number[]) =>
  Promise.all(ids.map(async (id) => (await getItem(api, acme, id)).DefaultItemId));
const patch = (id: number, body: unknown) =>
  api.call({ method: 'PATCH', url: `${CATALOG}/item/${id}`, tenant: acme, body });

describe('POST /private/catalog/items/{id}/group', () => {
  it('groups stand-alone items under a default item', async () => {
    const [d, v1, v2] = await items(3);
    const response = await group(d!, [v2, v1]);
    expectStatus(response, 200);
    expect(response.json()).toEqual({ DefaultItemId: d, VariantIds: [v1, v2] });
    expect(await defaults(d!, v1!, v2!)).toEqual([d, d, d]);
  });

  it('adds to an existing group and accepts items already in it', async () => {
    const [d, v1, v2] = await items(3);
    await groupOk(d!, [v1!]);
    expect(await groupOk(d!, [v1!, v2!])).toEqual({ DefaultItemId: d, VariantIds: [v1, v2] });
  });

  it('changes the ETag and DateModified of the items it groups', async () => {
    const [d, v] = await items(2);
    const before = await itemEtag(api, acme, v!);
    await groupOk(d!, [v!]);
    expect(await itemEtag(api, acme, v!)).not.toBe(before);
  });

  it('answers 404 for an unknown default item or variant, changing nothing', async () => {
    const [d, v] = await items(2);
    expectError(await group(999_999, [v]), 404, 'NotFound');
    expectError(await group(d!, [v, 999_999]), 404, 'NotFound');
    expect(await defaults(d!, v!)).toEqual([null, null]);
  });

  it('keeps an item in at most one group: 409 for a variant of another group', async () => {
    const [d1, d2, v] = await items(3);
    await groupOk(d1!, [v!]);
    expectError(await group(d2!, [v]), 409, 'AlreadyGrouped');
    expect(await defaults(d1!, d2!, v!)).toEqual([d1, null, d1]);
  });

  it('answers 409 when a listed item is the default item of its own group', async () => {
    const [d1, d2, v] = await items(3);
    await groupOk(d2!, [v!]);
    expectError(await group(d1!, [d2]), 409, 'IsDefaultItem');
    expect(await defaults(d1!, d2!, v!)).toEqual([null, d2, d2]);
  });

  it('answers 409 when the target is a variant, and changes none of the listed items', async () => {
    const [d, v, other] = await items(3);
    await groupOk(d!, [v!]);
    expectError(await group(v!, [other]), 409, 'NotADefaultItem');
    expect(await defaults(other!)).toEqual([null]);
  });

  it('is all or nothing: one refused item leaves the others stand-alone', async () => {
    const [d1, d2, v, free] = await items(4);
    await groupOk(d2!, [v!]);
    expectError(await group(d1!, [free, v]), 409, 'AlreadyGrouped');
    expect(await defaults(d1!, free!)).toEqual([null, null]);
  });

  it.each([
    ['an empty list', []],
    ['a list with an id twice', 'twice'],
    ['the default item itself', 'self'],
    ['an id of 0', [0]],
    ['a string id', ['x']],
    ['an object', { Ids: [1] }],
  ])('answers 400 for %s', async (_case, body) => {
    const [d, v] = await items(2);
    const ids = body === 'twice' ? [v, v] : body === 'self' ? [d] : body;
    const response = await group(d!, ids);
    expectError(response, 400, 'ValidationFailed');
    expect(await defaults(d!, v!)).toEqual([null, null]);
  });

  it('answers 400 for a bad path id and for more than 1000 ids', async () => {
    expectFieldError(await group('abc', [1]), 'id');
    const [d] = await items(1);
    const many = Array.from({ length: 1001 }, (_, i) => d! + 1 + i);
    expectFieldError(await group(d!, many), '(body)');
  });
});

describe('POST /private/catalog/items/{id}/ungroup', () => {
  it('dissolves the group: the default item and its variants become stand-alone', async () => {
    const [d, v1, v2] = await items(3);
    await groupOk(d!, [v1!, v2!]);
    const response = await ungroup(d!);
    expectStatus(response, 204);
    expect(response.body).toBe('');
    expect(await defaults(d!, v1!, v2!)).toEqual([null, null, null]);
  });

  it('answers 409 unless the item is a default item', async () => {
    const [d, v, alone] = await items(3);
    await groupOk(d!, [v!]);
    expectError(await ungroup(v!), 409, 'NotADefaultItem');
    expectError(await ungroup(alone!), 409, 'NotADefaultItem');
    expect(await defaults(d!, v!)).toEqual([d, d]);
  });

  it('answers 404 for an unknown item and 400 for a bad id', async () => {
    expectError(await ungroup(999_999), 404, 'NotFound');
    expectFieldError(await ungroup('0'), 'id');
  });
});

describe('POST /private/catalog/items/{id}/move', () => {
  it('moves variants from their groups into this one; a source group keeps the rest', async () => {
    const [d1, d2, a, b, c] = await items(5);
    await groupOk(d1!, [a!, b!]);
    await groupOk(d2!, [c!]);
    const response = await move(d2!, [a]);
    expectStatus(response, 200);
    expect(response.json()).toEqual({ DefaultItemId: d2, VariantIds: [a, c] });
    expect(await defaults(d1!, a!, b!, c!)).toEqual([d1, d2, d1, d2]);
  });

  it('dissolves a group left without variants', async () => {
    const [d1, d2, a] = await items(3);
    await groupOk(d1!, [a!]);
    await groupOk(d2!, [(await items(1))[0]!]);
    expectStatus(await move(d2!, [a]), 200);
    expect(await defaults(d1!, a!)).toEqual([null, d2]);
    expectError(await ungroup(d1!), 409, 'NotADefaultItem');
  });

  it('makes a stand-alone target the default item of a new group', async () => {
    const [d1, target, a, b] = await items(4);
    await groupOk(d1!, [a!, b!]);
    const response = await move(target!, [a, b]);
    expect(response.json()).toEqual({ DefaultItemId: target, VariantIds: [a, b] });
    expect(await defaults(target!, d1!)).toEqual([target, null]);
  });

  it('answers 409 for a stand-alone item (use group) and for a default item with variants', async () => {
    const [d1, d2, a, alone] = await items(4);
    await groupOk(d1!, [a!]);
    expectError(await move(d2!, [alone]), 409, 'NotAVariant');
    expectError(await move(d2!, [d1]), 409, 'IsDefaultItem');
    expect(await defaults(d1!, d2!, a!, alone!)).toEqual([d1, null, d1, null]);
  });

  it('answers 409 when the target is a variant', async () => {
    const [d1, d2, a, b] = await items(4);
    await groupOk(d1!, [a!]);
    await groupOk(d2!, [b!]);
    expectError(await move(a!, [b]), 409, 'NotADefaultItem');
    expect(await defaults(b!)).toEqual([d2]);
  });

  it('answers 404 for unknown items and 400 for bad bodies', async () => {
    const [d] = await items(1);
    expectError(await move(d!, [999_999]), 404, 'NotFound');
    expectError(await move(999_999, [d]), 404, 'NotFound');
    expectError(await move(d!, []), 400, 'ValidationFailed');
    expectError(await move(d!, [d]), 400, 'ValidationFailed');
  });
});

describe('DefaultItemId in item bodies', () => {
  it('creates an item as a variant of a stand-alone item, which becomes its default item', async () => {
    const [d] = await items(1);
    const variant = await createItem(api, acme, { DefaultItemId: d });
    expect(variant.DefaultItemId).toBe(d);
    expect(await defaults(d!)).toEqual([d]);
  });

  it('creates a stand-alone item for DefaultItemId null', async () => {
    expect((await createItem(api, acme, { DefaultItemId: null })).DefaultItemId).toBeNull();
  });

  it('refuses an unknown DefaultItemId with 400 and stores no item', async () => {
    const before = (await api.call({ url: `${CATALOG}/items?take=1`, tenant: acme })).json<{
      TotalCount: number;
    }>().TotalCount;
    expectFieldError(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/item`,
        tenant: acme,
        body: { Title: 'Orphan', DefaultItemId: 999_999 },
      }),
      'DefaultItemId',
    );
    const after = (await api.call({ url: `${CATALOG}/items?take=1`, tenant: acme })).json<{
      TotalCount: number;
    }>().TotalCount;
    expect(after).toBe(before);
  });

  it('refuses a variant as DefaultItemId with 409 and stores no item', async () => {
    const [d, v] = await items(2);
    await groupOk(d!, [v!]);
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/item`,
      tenant: acme,
      body: { Title: 'Nested', DefaultItemId: v },
    });
    expectError(response, 409, 'NotADefaultItem');
    const group = await api.call({
      url: `${CATALOG}/items/search?defaultItemId=${d}`,
      tenant: acme,
    });
    expect(group.json<{ TotalCount: number }>().TotalCount).toBe(2);
  });

  it('leaves a variant on its own with DefaultItemId null; the emptied group dissolves', async () => {
    const [d, v] = await items(2);
    await groupOk(d!, [v!]);
    const response = await patch(v!, { DefaultItemId: null });
    expectStatus(response, 200);
    expect(response.json<ItemJson>().DefaultItemId).toBeNull();
    expect(await defaults(d!)).toEqual([null]);
  });

  it('moves a variant to another group by DefaultItemId', async () => {
    const [d1, d2, a, b] = await items(4);
    await groupOk(d1!, [a!, b!]);
    expectStatus(await patch(a!, { DefaultItemId: d2 }), 200);
    expect(await defaults(d1!, d2!, a!, b!)).toEqual([d1, d2, d2, d1]);
    expectStatus(await patch(b!, { DefaultItemId: d2 }), 200);
    expect(await defaults(d1!, b!)).toEqual([null, d2]);
  });

  it('refuses to make a default item with variants stand-alone or a variant (409)', async () => {
    const [d, v, other] = await items(3);
    await groupOk(d!, [v!]);
    expectError(await patch(d!, { DefaultItemId: null }), 409, 'IsDefaultItem');
    expectError(await patch(d!, { DefaultItemId: other }), 409, 'IsDefaultItem');
    expect(await defaults(d!, v!, other!)).toEqual([d, d, null]);
  });

  it('keeps the group when PUT and PATCH do not send DefaultItemId', async () => {
    const [d, v] = await items(2);
    await groupOk(d!, [v!]);
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${CATALOG}/item/${v}`,
        tenant: acme,
        body: { Title: 'Still a variant' },
      }),
      200,
    );
    expectStatus(await patch(d!, { Name: 'Still the default' }), 200);
    expect(await defaults(d!, v!)).toEqual([d, d]);
  });

  it('refuses a DefaultItemId that is not an id with 400', async () => {
    const [v] = await items(1);
    expectFieldError(await patch(v!, { DefaultItemId: 0 }), 'DefaultItemId');
    expectFieldError(await patch(v!, { DefaultItemId: 999_999 }), 'DefaultItemId');
  });
});

describe('deleting items of a group', () => {
  const remove = (id: number) =>
    api.call({ method: 'DELETE', url: `${CATALOG}/item/${id}`, tenant: acme });

  it('leaves the variants of a deleted default item stand-alone', async () => {
    const [d, v1, v2] = await items(3);
    await groupOk(d!, [v1!, v2!]);
    const etag = await itemEtag(api, acme, v1!);
    expectStatus(await remove(d!), 204);
    expect(await defaults(v1!, v2!)).toEqual([null, null]);
    const after = await api.call({ url: `${CATALOG}/item/${v1}`, tenant: acme });
    expect(etagOf(after)).not.toBe(etag);
  });

  it('dissolves the group when its last variant is deleted', async () => {
    const [d, v] = await items(2);
    await groupOk(d!, [v!]);
    expectStatus(await remove(v!), 204);
    expect(await defaults(d!)).toEqual([null]);
  });

  it('keeps the group while variants remain', async () => {
    const [d, v1, v2] = await items(3);
    await groupOk(d!, [v1!, v2!]);
    expectStatus(await remove(v1!), 204);
    expect(await defaults(d!, v2!)).toEqual([d, d]);
  });
});
