// Ids past 32 bits: with every id sequence set beyond 2,147,483,647 (and the items' near
// 2^53), what the API creates gets such ids, answers them as JSON integers (digits in the body,
// not strings), and takes them back as path ids, in bodies and in queries: GET and PATCH of the
// item, its prices, variants and search; categories, brands, tags, price types and attribute
// types; stores, device types and devices; webhook subscriptions; analytics records; a catalog
// import and export.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/expectations.ts';
import { useTenant } from '../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  type ItemJson,
  type Page,
} from '../modules/catalog/catalog-fixtures.ts';
import {
  EXPORTS,
  JSONL,
  jsonl,
  runImport,
  useImportApi,
  waitForJob,
  type ExportJobJson,
} from '../modules/catalog/imports/imports-fixtures.ts';
import { createAsset } from '../modules/storage/storage-fixtures.ts';
import {
  MANAGEMENT,
  createDeviceType,
  createStore,
  uniqueId,
} from '../modules/company/company-fixtures.ts';

const api = useImportApi({ WEBHOOK_ALLOWED_HOSTS: 'receiver.internal:9000' });
const acme = useTenant(api, 'acme');

const BIG = 3_000_000_000;
/** Where each sequence goes on from: past 2^31, each its own, the items' near 2^53. */
const STARTS: Record<string, number> = {
  items_id_seq: Number.MAX_SAFE_INTEGER - 1000,
  item_prices_id_seq: BIG + 1_000_000,
  categories_id_seq: BIG + 2_000_000,
  brands_id_seq: BIG + 3_000_000,
  tags_id_seq: BIG + 4_000_000,
  price_types_id_seq: BIG + 5_000_000,
  dynamic_attribute_types_id_seq: BIG + 6_000_000,
  dynamic_attribute_values_id_seq: BIG + 7_000_000,
  catalog_imports_id_seq: BIG + 8_000_000,
  catalog_exports_id_seq: BIG + 9_000_000,
  stores_id_seq: BIG + 10_000_000,
  device_types_id_seq: BIG + 11_000_000,
  webhook_subscriptions_id_seq: BIG + 12_000_000,
  assets_id_seq: BIG + 13_000_000,
};

beforeAll(async () => {
  for (const [sequence, start] of Object.entries(STARTS))
    await api.database.handle.query('select setval($1::regclass, $2)', [sequence, start]);
});

/** The body's text has the id as digits after the field's name: a JSON integer, not a string. */
function expectJsonInteger(body: string, field: string, id: number) {
  expect(id).toBeGreaterThan(2 ** 31);
  expect(Number.isSafeInteger(id)).toBe(true);
  expect(body).toMatch(new RegExp(`"${field}"\\s*:\\s*${id}[,}\\s]`));
}

describe('ids past 32 bits', () => {
  it('are given to catalog resources, answered as JSON integers and taken back as path ids', async () => {
    const priceType = await createPriceType(api, acme);
    const brand = await createBrand(api, acme);
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, { ParentCategoryId: parent.Id });
    const tag = await createTag(api, acme);
    const type = await createAttributeType(api, acme);
    for (const [resource, id, start] of [
      ['pricetype', priceType.Id, STARTS.price_types_id_seq!],
      ['brand', brand.Id, STARTS.brands_id_seq!],
      ['category', category.Id, STARTS.categories_id_seq!],
      ['tag', tag.Id, STARTS.tags_id_seq!],
      ['dynamicattributetypes', type.Id, STARTS.dynamic_attribute_types_id_seq!],
    ] as const) {
      expect(id, resource).toBeGreaterThan(start);
      const fetched = await api.call({ url: `${CATALOG}/${resource}/${id}`, tenant: acme });
      expectStatus(fetched, 200);
      expectJsonInteger(fetched.body, 'Id', id);
    }
    expect(category.ParentCategoryId).toBe(parent.Id);

    const created = await api.call({
      method: 'POST',
      url: `${CATALOG}/item`,
      tenant: acme,
      body: {
        Title: 'Storm lantern',
        CategoryId: category.Id,
        BrandId: brand.Id,
        Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 30, DiscountPrice: 25 }],
        DynamicAttributes: [{ TypeId: type.Id, Value: 'Brass' }],
        Tags: [{ Id: tag.Id }],
      },
    });
    expectStatus(created, 201);
    const item = created.json<ItemJson>();
    expect(item.Id).toBeGreaterThan(STARTS.items_id_seq!);
    for (const [field, id] of [
      ['Id', item.Id],
      ['CategoryId', category.Id],
      ['BrandId', brand.Id],
      ['PriceTypeId', priceType.Id],
      ['ItemId', item.Id],
      ['PriceId', item.Prices[0]!.PriceId],
      ['TypeId', type.Id],
      ['TypeValueId', item.DynamicAttributes[0]!.TypeValueId],
    ] as const)
      expectJsonInteger(created.body, field, id);
    expect(item.Tags).toEqual([expect.objectContaining({ Id: tag.Id })]);

    const url = `${CATALOG}/item/${item.Id}`;
    const fetched = await api.call({ url, tenant: acme });
    expectStatus(fetched, 200);
    expect(fetched.json()).toEqual(item);
    const patched = await api.call({
      method: 'PATCH',
      url,
      tenant: acme,
      body: { Title: 'Storm lantern, brass' },
    });
    expectStatus(patched, 200);
    expect(patched.json<ItemJson>()).toMatchObject({ Id: item.Id, Title: 'Storm lantern, brass' });
    expect((await api.call({ url, tenant: acme })).json<ItemJson>().Title).toBe(
      'Storm lantern, brass',
    );
    const prices = await api.call({ url: `${CATALOG}/items/${item.Id}/prices`, tenant: acme });
    expectStatus(prices, 200);
    expectJsonInteger(prices.body, 'ItemId', item.Id);

    // A variant grouped under it, and the searches that name ids.
    const variant = await createItem(api, acme, { Title: 'Storm lantern, copper' });
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/items/${item.Id}/group`,
        tenant: acme,
        body: [variant.Id],
      }),
      200,
    );
    const grouped = await api.call({ url: `${CATALOG}/item/${variant.Id}`, tenant: acme });
    expectJsonInteger(grouped.body, 'DefaultItemId', item.Id);
    const simple = await api.call({
      url: `${CATALOG}/items/search?itemIds=${item.Id},${variant.Id}`,
      tenant: acme,
    });
    expectStatus(simple, 200);
    expect(
      simple
        .json<Page<ItemJson>>()
        .Results.map((i) => i.Id)
        .sort(),
    ).toEqual([item.Id, variant.Id].sort());
    const full = await api.call({
      method: 'POST',
      url: `${CATALOG}/items`,
      tenant: acme,
      body: {
        CategoryId: category.Id,
        BrandId: brand.Id,
        TagId: tag.Id,
        PriceTypeId: priceType.Id,
        MinPrice: 1,
        DynamicAttributes: [{ TypeId: type.Id, Value: 'Brass' }],
        IncludeOnlyMasterItems: false,
        IncludeStaticNavigation: true,
        IncludeDynamicNavigation: true,
      },
    });
    expectStatus(full, 200);
    const result = full.json<{ SearchResult: { Items: ItemJson[] } }>().SearchResult;
    expect(result.Items.map((i) => i.Id)).toEqual([item.Id]);
    expectJsonInteger(full.body, 'PriceTypeId', priceType.Id);
    // The navigation names the ids as JSON integers too.
    for (const [field, id] of [
      ['Id', category.Id],
      ['Id', brand.Id],
      ['Id', tag.Id],
      ['TypeId', type.Id],
      ['TypeValueId', item.DynamicAttributes[0]!.TypeValueId],
    ] as const)
      expectJsonInteger(full.body, field, id);
    const listed = await api.call({ url: `${CATALOG}/items?take=10`, tenant: acme });
    expect(listed.json<Page<ItemJson>>().Results.map((i) => i.Id)).toContain(item.Id);
    const sub = await api.call({ url: `${CATALOG}/category/${parent.Id}`, tenant: acme });
    expectJsonInteger(sub.body, 'Id', parent.Id);
  });

  it('are given to stores, device types and webhook subscriptions, and taken back', async () => {
    const store = await createStore(api, acme);
    expect(store.Id).toBeGreaterThan(STARTS.stores_id_seq!);
    const fetched = await api.call({ url: `${MANAGEMENT}/store/${store.Id}`, tenant: acme });
    expectStatus(fetched, 200);
    expectJsonInteger(fetched.body, 'Id', store.Id);
    const type = await createDeviceType(api, acme);
    expect(type.Id).toBeGreaterThan(STARTS.device_types_id_seq!);
    const typeUrl = `${MANAGEMENT}/devicetypes/${type.Id}`;
    expectStatus(await api.call({ url: typeUrl, tenant: acme }), 200);
    const physical = uniqueId('pd');
    const device = await api.call({
      method: 'POST',
      url: `${MANAGEMENT}/physicaldevices`,
      tenant: acme,
      body: { DeviceId: physical, Description: 'A screen', StoreId: store.Id },
    });
    expectStatus(device, 201);
    expectJsonInteger(device.body, 'StoreId', store.Id);
    const logical = await api.call({
      method: 'POST',
      url: `${MANAGEMENT}/physicaldevices/${physical}/devices`,
      tenant: acme,
      body: { DeviceId: uniqueId('ld'), Description: 'Catalog kiosk', DeviceTypeId: type.Id },
    });
    expectStatus(logical, 201);
    expectJsonInteger(logical.body, 'DeviceTypeId', type.Id);
    const byType = await api.call({
      url: `${MANAGEMENT}/physicaldevices/${physical}/devices?deviceTypeId=${type.Id}`,
      tenant: acme,
    });
    expectStatus(byType, 200);
    expect(byType.json<Page<unknown>>().TotalCount).toBe(1);

    const subscription = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: { Url: 'https://hooks.example.com/omni', EventTypes: ['item.*'] },
    });
    expectStatus(subscription, 201);
    const { Id } = subscription.json<{ Id: number }>();
    expect(Id).toBeGreaterThan(STARTS.webhook_subscriptions_id_seq!);
    expectJsonInteger(subscription.body, 'Id', Id);
    const again = await api.call({ url: `/management/webhooks/${Id}`, tenant: acme });
    expectStatus(again, 200);
    expectJsonInteger(again.body, 'Id', Id);
    const deliveries = await api.call({
      url: `/management/webhooks/${Id}/deliveries`,
      tenant: acme,
    });
    expectStatus(deliveries, 200);
  });

  it('are recorded and filtered in analytics logs', async () => {
    const itemId = STARTS.items_id_seq! + 500;
    const storeId = STARTS.stores_id_seq! + 500;
    const response = await api.call({
      method: 'POST',
      url: '/analytics/logs',
      tenant: acme,
      body: [
        {
          Counter: 'ItemView',
          ItemId: itemId,
          StoreId: storeId,
          CreatedDate: '2025-09-01T10:00:00Z',
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(202);
    const logs = await api.call({
      url: `/private/analytics/servercounters/ItemView/logs?from=2025-09-01T00:00:00Z&to=2025-09-02T00:00:00Z&itemId=${itemId}&storeId=${storeId}`,
      tenant: acme,
    });
    expectStatus(logs, 200);
    expect(logs.json<{ Logs: unknown[] }>().Logs).toEqual([
      expect.objectContaining({ ItemId: itemId, StoreId: storeId }),
    ]);
    expectJsonInteger(logs.body, 'ItemId', itemId);
  });

  it('are given by a catalog import and read by an export', async () => {
    const tenant = await api.createTenant(`big-ids-${Date.now() % 100000}`);
    const job = await runImport(
      api,
      tenant,
      jsonl(
        [1, 2, 3].map((n) => ({
          SKU: `BIG-${n}`,
          Title: `Imported ${n}`,
          GroupKey: 'lanterns',
          Prices: [{ PriceTypeSymbol: 'EUR', NormalPrice: 10 + n }],
          DynamicAttributes: [{ TypeName: 'Color', Value: n % 2 ? 'Red' : 'Blue' }],
          Tags: [{ Name: 'Imported' }],
          Category: 'Lights',
          Brand: 'Lumen',
        })),
      ),
      JSONL,
      'errorPolicy=RejectAll&createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 3 });
    expect(job.Id).toBeGreaterThan(STARTS.catalog_imports_id_seq!);
    const listed = await api.call({ url: `${CATALOG}/items?take=10`, tenant });
    const items = listed.json<Page<ItemJson>>().Results;
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item.Id).toBeGreaterThan(STARTS.items_id_seq!);
      expect(item.CategoryId).toBeGreaterThan(STARTS.categories_id_seq!);
      expect(item.BrandId).toBeGreaterThan(STARTS.brands_id_seq!);
      expect(item.DefaultItemId).toBe(Math.min(...items.map((i) => i.Id)));
      expectStatus(await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant }), 200);
    }

    const started = await api.call({
      method: 'POST',
      url: EXPORTS,
      tenant,
      body: { Format: 'jsonl', CategoryId: items[0]!.CategoryId, BrandId: items[0]!.BrandId },
    });
    expectStatus(started, 202);
    const exported = await waitForJob<ExportJobJson>(api, tenant, started.headers.location!);
    expect(exported).toMatchObject({ State: 'Succeeded', ItemsWritten: 3 });
    expect(exported.Id).toBeGreaterThan(STARTS.catalog_exports_id_seq!);
    expectStatus(await api.call({ url: `${EXPORTS}/${exported.Id}`, tenant }), 200);
  });

  it('are given to assets, taken back as path ids and related to an item by them', async () => {
    const asset = await createAsset(api, acme);
    expect(asset.Id).toBeGreaterThan(STARTS.assets_id_seq!);
    const fetched = await api.call({ url: `/management/storage/asset/${asset.Id}`, tenant: acme });
    expectStatus(fetched, 200);
    expectJsonInteger(fetched.body, 'Id', asset.Id);
    const item = await createItem(api, acme);
    const related = await api.call({
      method: 'POST',
      url: `${CATALOG}/items/${item.Id}/image?assetId=${asset.Id}&isDefault=true`,
      tenant: acme,
    });
    expectStatus(related, 201);
    expectJsonInteger(related.body, 'AssetId', asset.Id);
    const images = await api.call({ url: `${CATALOG}/items/${item.Id}/image`, tenant: acme });
    expectStatus(images, 200);
    expectJsonInteger(images.body, 'AssetId', asset.Id);
  });
});
