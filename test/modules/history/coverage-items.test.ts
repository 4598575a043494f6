// The change history of items through their sub-resources and variant groups (one item entry
// per operation per item changed), of a device's writes (the device, for its app), and of a
// catalog import (each record written is one entry naming the import job and who started it).
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../../support/expectations.ts';
import { useTenant } from '../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createItem,
  createPriceType,
  createTag,
  unique,
} from '../catalog/catalog-fixtures.ts';
import {
  IMPORTS,
  JSONL,
  jsonl,
  postImport,
  useImportApi,
  waitForJob,
  type ImportJobJson,
} from '../catalog/imports/imports-fixtures.ts';
import { createDeviceType, deviceInStore, uniqueId } from '../company/company-fixtures.ts';
import { createAsset } from '../storage/storage-fixtures.ts';
import { appActor, entriesAfter, historyMark, onlyEntryOf } from './history-row-fixtures.ts';

const api = useImportApi();
const acme = useTenant(api, 'acme');

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  api.call({ method, url, tenant: acme, ...(body !== undefined ? { body } : {}) });

/** Runs `write` and answers the item ids its entries name, checking each is an item update. */
async function itemUpdates(write: () => Promise<unknown>): Promise<string[]> {
  const mark = await historyMark(api, acme);
  await write();
  const entries = await entriesAfter(api, acme, mark);
  for (const entry of entries) {
    expect(entry).toMatchObject({ resource: 'item', action: 'updated' });
    expect(entry.actor).toEqual(appActor(acme));
  }
  return entries.map((e) => e.resource_id).sort();
}

describe("an item's relations", () => {
  it('prices, dynamic attributes, a tag mapping and an asset relation: one entry each', async () => {
    const item = await createItem(api, acme);
    const id = String(item.Id);
    const euro = await createPriceType(api, acme);
    const colour = await createAttributeType(api, acme);
    const tag = await createTag(api, acme);
    const prices = await onlyEntryOf(api, acme, 'item', async () =>
      expectStatus(
        await call('PUT', `${CATALOG}/items/${id}/prices`, [
          { PriceTypeId: euro.Id, NormalPrice: 10 },
        ]),
        200,
      ),
    );
    expect(prices).toMatchObject({ resource_id: id, action: 'updated', version: 2 });
    expect(prices.data!.Prices).toEqual([
      expect.objectContaining({ PriceTypeId: euro.Id, NormalPrice: 10 }),
    ]);
    const attributes = await onlyEntryOf(api, acme, 'item', async () =>
      expectStatus(
        await call('PUT', `${CATALOG}/items/${id}/dynamicattributes`, [
          { TypeId: colour.Id, Value: 'Red' },
        ]),
        200,
      ),
    );
    expect(attributes).toMatchObject({ resource_id: id, version: 3 });
    const tagged = await onlyEntryOf(api, acme, 'item', async () =>
      expectStatus(
        await call('POST', `${CATALOG}/itemtagmapping`, { ItemId: item.Id, TagId: tag.Id }),
        201,
      ),
    );
    expect(tagged).toMatchObject({ resource_id: id, version: 4 });
    const untagged = await onlyEntryOf(api, acme, 'item', async () =>
      expectStatus(
        await call('DELETE', `${CATALOG}/itemtagmapping?itemId=${item.Id}&tagId=${tag.Id}`),
        204,
      ),
    );
    expect(untagged).toMatchObject({ resource_id: id, version: 5 });
    const asset = await createAsset(api, acme);
    const related = await onlyEntryOf(api, acme, 'item', async () => {
      const r = await call('POST', `${CATALOG}/items/${id}/image?assetId=${asset.Id}`);
      expect(r.statusCode, r.body).toBeLessThan(300);
    });
    expect(related).toMatchObject({ resource_id: id, version: 6 });
  });
});

describe('variant groups', () => {
  it('group, move and ungroup leave one entry per item changed', async () => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => createItem(api, acme)));
    const ids = (...items: { Id: number }[]) => items.map((i) => String(i.Id)).sort();
    expect(
      await itemUpdates(async () =>
        expectStatus(await call('POST', `${CATALOG}/items/${a!.Id}/group`, [b!.Id, c!.Id]), 200),
      ),
    ).toEqual(ids(a!, b!, c!));
    const moved = await itemUpdates(async () => {
      const r = await call('POST', `${CATALOG}/items/${d!.Id}/move`, [c!.Id]);
      expect(r.statusCode, r.body).toBe(200);
    });
    // c leaves a's group for d's: each item whose data changed, once.
    expect(new Set(moved).size).toBe(moved.length);
    expect(moved).toContain(String(c!.Id));
    const ungrouped = await itemUpdates(async () =>
      expectStatus(await call('POST', `${CATALOG}/items/${a!.Id}/ungroup`), 204),
    );
    expect(new Set(ungrouped).size).toBe(ungrouped.length);
    expect(ungrouped).toContain(String(a!.Id));
  });
});

describe("a device's writes", () => {
  it('name the physical device, on behalf of its app', async () => {
    const { app, physicalDeviceId, token } = await deviceInStore(api, acme, null);
    const type = await createDeviceType(api, acme, 'InStore');
    const entry = await onlyEntryOf(api, acme, 'logical_device', async () => {
      const r = await api.call({
        method: 'POST',
        url: '/company/logicaldevices',
        tenant: acme,
        token,
        body: { DeviceId: uniqueId('ld'), Description: 'Till', DeviceTypeId: type.Id },
      });
      expectStatus(r, 201);
    });
    expect(entry.action).toBe('created');
    expect(entry.actor).toEqual({
      Type: 'Device',
      Id: physicalDeviceId,
      OnBehalfOf: expect.objectContaining({ Type: 'App', Id: app.id }) as unknown,
    });
  });
});

describe('a catalog import', () => {
  it('leaves one entry per record written, naming the import job and who started it', async () => {
    const records = [1, 2, 3, 4, 5].map(() => ({ SKU: unique('SKU'), Title: unique('Lamp') }));
    const mark = await historyMark(api, acme);
    const posted = await postImport(api, acme, jsonl(records), JSONL, 'errorPolicy=SkipFailedRows');
    expect(posted.statusCode, posted.body).toBe(202);
    const job = posted.json<ImportJobJson>();
    const done = await waitForJob<ImportJobJson>(api, acme, `${IMPORTS}/${job.Id}`);
    expect(done.State).toBe('Succeeded');
    const items = (await entriesAfter(api, acme, mark)).filter((e) => e.resource === 'item');
    expect(items).toHaveLength(records.length);
    expect(new Set(items.map((e) => e.resource_id)).size).toBe(records.length);
    for (const entry of items) {
      expect(entry.action).toBe('created');
      expect(entry.actor).toEqual({
        Type: 'Job',
        Id: String(job.Id),
        Name: 'catalog import',
        OnBehalfOf: appActor(acme),
      });
      expect(entry.context).toMatchObject({ Operation: 'catalogImport' });
    }
  });
});
