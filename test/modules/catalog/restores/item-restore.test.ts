// POST /private/catalog/item/{id}/history/{version}/restore (docs/api.md, "Restoring"): an item
// back to a version of its history, as one new change that the history records as restored.
import { describe, expect, it } from 'vitest';
import { etagOf, expectError, expectStatus } from '../../../support/expectations.ts';
import { useTenant, useTestApi } from '../../../support/test-api.ts';
import {
  CATALOG,
  consumerToken,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  getItem,
  unique,
  type ItemJson,
} from '../catalog-fixtures.ts';
import { catalogEditor, entriesOf, privateApp, restore } from './restore-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const put = async (id: number, body: Record<string, unknown>, token?: string) => {
  const response = await api.call({
    method: 'PUT',
    url: `${CATALOG}/item/${id}`,
    tenant: acme,
    body,
    ...(token ? { token } : {}),
  });
  expectStatus(response, 200);
  return response.json<ItemJson>();
};

/** The item's body as PUT takes it back (read-only fields are ignored). */
const bodyOf = (item: ItemJson) => item as unknown as Record<string, unknown>;

describe('POST /private/catalog/item/{id}/history/{version}/restore', () => {
  it('gives the item back the fields, prices, attributes and tags of the version, as a restored change of the caller', async () => {
    const euro = await createPriceType(api, acme);
    const [brand, category, colour, tag] = await Promise.all([
      createBrand(api, acme),
      createCategory(api, acme),
      createAttributeType(api, acme),
      createTag(api, acme),
    ]);
    const first = await createItem(api, acme, {
      Title: 'Lantern',
      SKU: unique('SKU'),
      BrandId: brand.Id,
      CategoryId: category.Id,
      Rating: 4.5,
      Prices: [{ PriceTypeId: euro.Id, NormalPrice: 10, DiscountPrice: 8 }],
      DynamicAttributes: [{ TypeId: colour.Id, Value: 'Green' }],
      Tags: [{ Id: tag.Id }],
    });
    // Three price changes by three actors: another app, a member, the tenant's own app.
    const app = await privateApp(api, acme);
    const editor = await catalogEditor(api, acme);
    await put(
      first.Id,
      {
        ...bodyOf(first),
        Title: 'Lantern XL',
        Prices: [{ PriceTypeId: euro.Id, NormalPrice: 11 }],
      },
      app.token,
    );
    await put(
      first.Id,
      {
        ...bodyOf(first),
        Title: 'Lantern XL',
        Prices: [{ PriceTypeId: euro.Id, NormalPrice: 12 }],
        DynamicAttributes: [],
        Tags: [],
      },
      editor.token,
    );
    const last = await put(first.Id, {
      Title: 'Lantern XXL',
      Prices: [{ PriceTypeId: euro.Id, NormalPrice: 13 }],
    });
    expect(last.BrandId).toBeNull();

    const response = await restore(api, acme, 'item', first.Id, 1, { token: editor.token });
    expectStatus(response, 200);
    const restored = response.json<ItemJson>();
    const { DateModified: _at, Prices: _p, ...fields } = first;
    expect(restored).toMatchObject(fields);
    expect(restored.Prices).toEqual([
      expect.objectContaining({ PriceTypeId: euro.Id, NormalPrice: 10, DiscountPrice: 8 }),
    ]);
    expect(restored.DynamicAttributes).toEqual(first.DynamicAttributes);
    expect(restored.Tags).toEqual(first.Tags);
    // The answer is the item as its GET answers it, with its ETag.
    const fetched = await api.call({ url: `${CATALOG}/item/${first.Id}`, tenant: acme });
    expect(response.json()).toEqual(fetched.json());
    expect(etagOf(response)).toBe(etagOf(fetched));

    const entries = await entriesOf(api, acme, 'item', first.Id);
    expect(entries.map((e) => [e.version, e.action, e.actor.Type])).toEqual([
      [1, 'created', 'App'],
      [2, 'updated', 'App'],
      [3, 'updated', 'Member'],
      [4, 'updated', 'App'],
      [5, 'restored', 'Member'],
    ]);
    expect(entries[0]!.actor).toMatchObject({ Type: 'App', Id: acme.appId });
    expect(entries[1]!.actor).toEqual({ Type: 'App', Id: app.id, Name: app.name });
    expect(entries[4]!.actor).toEqual({ Type: 'Member', Id: editor.id, Name: editor.username });
    expect(entries[4]!.context.Restore).toEqual({
      Resource: 'item',
      ResourceId: String(first.Id),
      FromVersion: 1,
    });
    expect(entries[4]!.data).toEqual(fetched.json());
  });

  it('restores without a body (or with an empty one), and with the latest version expected', async () => {
    const item = await createItem(api, acme, { Title: 'Before' });
    await put(item.Id, { Title: 'After' });
    const bare = await restore(api, acme, 'item', item.Id, 1);
    expectStatus(bare, 200);
    expect(bare.json<ItemJson>().Title).toBe('Before');
    const expected = await restore(api, acme, 'item', item.Id, 2, { body: { ExpectedVersion: 3 } });
    expectStatus(expected, 200);
    expect(expected.json<ItemJson>().Title).toBe('After');
    // A client that sends a JSON Content-Type on every request, with no body.
    const empty = await restore(api, acme, 'item', item.Id, 1, {
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(empty, 200);
    expect(empty.json<ItemJson>().Title).toBe('Before');
    expect((await entriesOf(api, acme, 'item', item.Id)).map((e) => e.action)).toEqual([
      'created',
      'updated',
      'restored',
      'restored',
      'restored',
    ]);
  });

  it('honours If-Match: 412 when the item changed since, nothing written', async () => {
    const item = await createItem(api, acme, { Title: 'One' });
    const stale = etagOf(await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme }));
    await put(item.Id, { Title: 'Two' });
    const refused = await restore(api, acme, 'item', item.Id, 1, {
      headers: { 'if-match': stale },
    });
    expectError(refused, 412, 'PreconditionFailed');
    expect((await getItem(api, acme, item.Id)).Title).toBe('Two');
    const current = etagOf(await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme }));
    const done = await restore(api, acme, 'item', item.Id, 1, { headers: { 'if-match': current } });
    expectStatus(done, 200);
    expect(done.json<ItemJson>().Title).toBe('One');
  });

  it('409 HistoryConflict when the latest version is not the one expected; no entry', async () => {
    const item = await createItem(api, acme, { Title: 'One' });
    await put(item.Id, { Title: 'Two' });
    const refused = await restore(api, acme, 'item', item.Id, 1, { body: { ExpectedVersion: 1 } });
    expectError(refused, 409, 'HistoryConflict');
    expect(await entriesOf(api, acme, 'item', item.Id)).toHaveLength(2);
    expect((await getItem(api, acme, item.Id)).Title).toBe('Two');
  });

  it('404 NotFound for an item that does not exist, HistoryVersionNotFound for a version it has not', async () => {
    expectError(await restore(api, acme, 'item', 999_999, 1), 404, 'NotFound');
    const item = await createItem(api, acme);
    expectError(await restore(api, acme, 'item', item.Id, 2), 404, 'HistoryVersionNotFound');
  });

  it('404 NotFound for a deleted item', async () => {
    const item = await createItem(api, acme);
    const deleted = await api.call({
      method: 'DELETE',
      url: `${CATALOG}/item/${item.Id}`,
      tenant: acme,
    });
    expectStatus(deleted, 204);
    expectError(await restore(api, acme, 'item', item.Id, 1), 404, 'NotFound');
  });

  it("409 HistoryVersionNotRestorable for a delete's version", async () => {
    const item = await createItem(api, acme);
    // A delete's entry for an item that exists: ids are never used twice, so the history is
    // written here as it would be had one been.
    const tenantId = (await api.services.tenants.findByName(acme.name))!.id;
    await api.database.handle.query(
      `insert into change_history (tenant_id, tx_id, resource, resource_id, action, version, actor, actor_key, context, data)
       values ($1, 1, 'item', $2, 'deleted', 2, '{"Type":"System"}', 'system:', '{}', $3)`,
      [tenantId, String(item.Id), JSON.stringify(item)],
    );
    expectError(await restore(api, acme, 'item', item.Id, 2), 409, 'HistoryVersionNotRestorable');
    expect(await entriesOf(api, acme, 'item', item.Id)).toHaveLength(2);
  });

  describe('409 RestoreReferenceMissing when the version names what was deleted since; nothing written', () => {
    const cases: [
      string,
      string,
      () => Promise<{ field: string; body: Record<string, unknown>; drop: () => Promise<void> }>,
    ][] = [
      [
        'a brand',
        'BrandId',
        async () => {
          const brand = await createBrand(api, acme);
          return {
            field: `BrandId`,
            body: { BrandId: brand.Id },
            drop: () => remove(`brand/${brand.Id}`),
          };
        },
      ],
      [
        'a category',
        'CategoryId',
        async () => {
          const category = await createCategory(api, acme);
          return {
            field: 'CategoryId',
            body: { CategoryId: category.Id },
            drop: () => remove(`category/${category.Id}`),
          };
        },
      ],
      [
        'a price type',
        'Prices',
        async () => {
          const type = await createPriceType(api, acme);
          return {
            field: `Prices[PriceTypeId=${type.Id}]`,
            body: { Prices: [{ PriceTypeId: type.Id, NormalPrice: 5 }] },
            drop: () => remove(`pricetype/${type.Id}`),
          };
        },
      ],
      [
        'a dynamic attribute type',
        'DynamicAttributes',
        async () => {
          const type = await createAttributeType(api, acme);
          return {
            field: `DynamicAttributes[TypeId=${type.Id}]`,
            body: { DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }] },
            drop: () => remove(`dynamicattributetypes/${type.Id}`),
          };
        },
      ],
      [
        'a tag',
        'Tags',
        async () => {
          const tag = await createTag(api, acme);
          return {
            field: `Tags[Id=${tag.Id}]`,
            body: { Tags: [{ Id: tag.Id }] },
            drop: () => remove(`tag/${tag.Id}`),
          };
        },
      ],
    ];
    it.each(cases)('%s', async (_what, _key, make) => {
      const { field, body, drop } = await make();
      const item = await createItem(api, acme, { Title: 'Referring', ...body });
      // The reference is taken away from the item first: what is in use cannot be deleted.
      await put(item.Id, { Title: 'Plain', Prices: [], DynamicAttributes: [], Tags: [] });
      await drop();
      const before = etagOf(await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme }));
      expectError(
        await restore(api, acme, 'item', item.Id, 1),
        409,
        'RestoreReferenceMissing',
        field,
      );
      const after = await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme });
      expect(etagOf(after)).toBe(before);
      expect(after.json<ItemJson>().Title).toBe('Plain');
      expect((await entriesOf(api, acme, 'item', item.Id)).map((e) => e.action)).toEqual([
        'created',
        'updated',
      ]);
    });
  });

  it('409 DuplicateSku when another item has taken the SKU since', async () => {
    const sku = unique('SKU');
    const item = await createItem(api, acme, { SKU: sku });
    await put(item.Id, { Title: item.Title, SKU: unique('SKU') });
    await createItem(api, acme, { SKU: sku });
    expectError(await restore(api, acme, 'item', item.Id, 1), 409, 'DuplicateSku');
    expect(await entriesOf(api, acme, 'item', item.Id)).toHaveLength(2);
  });

  it('400 for a version or a body it does not take', async () => {
    const item = await createItem(api, acme);
    expectError(await restore(api, acme, 'item', item.Id, 0), 400, 'ValidationFailed');
    expectError(await restore(api, acme, 'item', item.Id, 'one'), 400, 'ValidationFailed');
    expectError(
      await restore(api, acme, 'item', item.Id, 1, { body: { ExpectedVersion: 'two' } }),
      400,
      'ValidationFailed',
      'ExpectedVersion',
    );
    expectError(
      await restore(api, acme, 'item', item.Id, 1, { body: { Version: 1 } }),
      400,
      'ValidationFailed',
    );
  });

  it("404 for another tenant's item; 403 for a Consumer app", async () => {
    const item = await createItem(api, acme, { Title: 'Mine' });
    await put(item.Id, { Title: 'Changed' });
    expectError(await restore(api, globex, 'item', item.Id, 1), 404, 'NotFound');
    const consumer = await consumerToken(api, acme);
    expectError(
      await restore(api, acme, 'item', item.Id, 1, { token: consumer }),
      403,
      'InsufficientScope',
    );
    expect((await getItem(api, acme, item.Id)).Title).toBe('Changed');
    expect(await entriesOf(api, acme, 'item', item.Id)).toHaveLength(2);
  });
});

async function remove(path: string): Promise<void> {
  const response = await api.call({ method: 'DELETE', url: `${CATALOG}/${path}`, tenant: acme });
  expectStatus(response, 204);
}
