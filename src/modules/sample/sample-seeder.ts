// Seeds a tenant with the sample: its catalog through the catalog import (the same validation,
// events and search documents as a client's import), its images through the storage service,
// its stores and devices through the company services and its shopper activity through the
// analytics ingestion. Each thing made is recorded (sample-records.ts), so a second run makes
// only what is missing and a run stopped half-way goes on where it stopped.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { DomainError } from '../../domain/domain-error.ts';
import {
  recentDays,
  SAMPLE_ANALYTICS_DAYS,
  sampleActivity,
  type ActivityStore,
} from './sample-analytics.ts';
import {
  batchEnd,
  sampleItems,
  sampleStructureRecords,
  type SampleImage,
  type SampleItem,
} from './sample-catalog.ts';
import { drawSampleImage } from './sample-images.ts';
import type { CatalogIds, SampleNeeds } from './sample-needs.ts';
import { SampleRecords, type SampleKind, type SampleRecord } from './sample-records.ts';
import {
  SAMPLE_DEVICE_KINDS,
  SAMPLE_STORES,
  sampleDeviceId,
  sampleLogicalDeviceId,
} from './sample-stores.ts';

/** Items a sample holds unless told otherwise, and at most. */
export const SAMPLE_DEFAULT_ITEMS = 200;
export const SAMPLE_MAX_ITEMS = 100_000;
/** Items per import job: a job is a few chunks of the import's 1,000 records. */
const BATCH_ITEMS = 25_000;
/** The items that the sample's shopper activity is about (the most popular of a large sample). */
const ACTIVITY_ITEMS = 2_000;
const TRENDING_DAYS = 7;

export type SamplePhase = 'catalog' | 'images' | 'items' | 'stores' | 'activity';
export type SampleProgress = (phase: SamplePhase, done: number, total: number) => void;

/** What a tenant holds of the sample after a run, by kind. */
export type SampleCounts = Partial<Record<SampleKind, number>>;

const CATALOG_KINDS: [keyof CatalogIds, SampleKind][] = [
  ['categories', 'category'],
  ['brands', 'brand'],
  ['tags', 'tag'],
  ['priceTypes', 'price-type'],
  ['attributeTypes', 'attribute-type'],
];

const jsonl = (records: readonly unknown[]) =>
  Buffer.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n', 'utf8');

export class SampleSeeder {
  private readonly needs: SampleNeeds;
  private readonly records: SampleRecords;

  constructor(database: DatabaseHandle, needs: SampleNeeds) {
    this.needs = needs;
    this.records = new SampleRecords(database);
  }

  /** The sample's resources in a tenant, by kind. */
  counts(tenantId: number): Promise<SampleCounts> {
    return this.records.counts(tenantId);
  }

  /** Makes what the tenant lacks of a sample of `items` items; answers what it then holds. */
  async seed(
    tenantId: number,
    baseUrl: string,
    items = SAMPLE_DEFAULT_ITEMS,
    progress: SampleProgress = () => {},
  ): Promise<SampleCounts> {
    await this.resumeImports(tenantId);
    const imports = await this.records.keys(tenantId, 'import');
    if (!imports.has('catalog')) {
      progress('catalog', 0, 1);
      await this.importRecords(tenantId, baseUrl, 'catalog', sampleStructureRecords());
      progress('catalog', 1, 1);
    }
    await this.seedItems(tenantId, baseUrl, items, progress);
    await this.seedStores(tenantId, progress);
    await this.seedActivity(tenantId, progress);
    return this.records.counts(tenantId);
  }

  private async seedItems(
    tenantId: number,
    baseUrl: string,
    count: number,
    progress: SampleProgress,
  ): Promise<void> {
    const made = await this.records.keys(tenantId, 'item');
    const images = await this.records.keys(tenantId, 'image');
    for (let from = 1; from <= count;) {
      const to = batchEnd(from, BATCH_ITEMS, count);
      const missing = [...sampleItems(from, to)].filter((item) => !made.has(item.sku));
      if (missing.length > 0) {
        await this.uploadImages(tenantId, baseUrl, missing, images, progress);
        const records = missing.map((item) => ({
          ...item.record,
          Assets: [{ AssetId: Number(images.get(item.image.fileName)), IsDefault: true }],
        }));
        const done = await this.importRecords(
          tenantId,
          baseUrl,
          `items:${from}-${to}`,
          records,
          (rows) => progress('items', from - 1 + rows, count),
        );
        for (const { sku, itemId } of done) made.set(sku, String(itemId));
      }
      progress('items', to, count);
      from = to + 1;
    }
  }

  private async uploadImages(
    tenantId: number,
    baseUrl: string,
    items: readonly SampleItem[],
    images: Map<string, string>,
    progress: SampleProgress,
  ): Promise<void> {
    const needed = new Map<string, SampleImage>();
    for (const { image } of items)
      if (!images.has(image.fileName)) needed.set(image.fileName, image);
    let done = 0;
    for (const image of needed.values()) {
      const id = await this.needs.storage.upload(
        tenantId,
        baseUrl,
        { fileName: image.fileName, mimeType: 'image/svg+xml' },
        drawSampleImage(image),
      );
      await this.records.add(tenantId, [
        { kind: 'image', resourceId: String(id), key: image.fileName },
      ]);
      images.set(image.fileName, String(id));
      progress('images', ++done, needed.size);
    }
  }

  /**
   * Imports records as one job, recorded before it runs (so a run stopped half-way finds it), and
   * records the catalog resources it created and the items it wrote; answers those items.
   */
  private async importRecords(
    tenantId: number,
    baseUrl: string,
    key: string,
    records: readonly unknown[],
    onRows: (rows: number) => void = () => {},
  ): Promise<{ sku: string; itemId: number }[]> {
    const before = await this.needs.catalog.ids(tenantId);
    const jobId = await this.needs.catalog.createImport(tenantId, baseUrl, jsonl(records));
    await this.records.add(tenantId, [{ kind: 'import', resourceId: String(jobId), key }]);
    return this.finishImport(tenantId, jobId, before, onRows);
  }

  private async finishImport(
    tenantId: number,
    jobId: number,
    before: CatalogIds | undefined,
    onRows: (rows: number) => void = () => {},
    { failIfUnfinished = true } = {},
  ): Promise<{ sku: string; itemId: number }[]> {
    const end = await this.needs.catalog.runImport(tenantId, jobId, onRows);
    // What an import wrote is recorded even when it did not succeed, so that remove finds it.
    const written = await this.needs.catalog.importedItems(tenantId, jobId);
    const made: SampleRecord[] = written.map(({ sku, itemId }) => ({
      kind: 'item',
      resourceId: String(itemId),
      key: sku,
    }));
    if (before) {
      const after = await this.needs.catalog.ids(tenantId);
      for (const [field, kind] of CATALOG_KINDS) {
        const old = new Set(before[field]);
        for (const id of after[field])
          if (!old.has(id)) made.push({ kind, resourceId: String(id), key: null });
      }
    }
    await this.records.add(tenantId, made);
    if (end.state !== 'Succeeded' && failIfUnfinished)
      throw new Error(
        `The sample's import ${jobId} ended ${end.state}: ${end.error ?? 'no error given'}`,
      );
    return written;
  }

  /**
   * Finishes the imports of a run that stopped half-way: the items they wrote are recorded. (What
   * such an import created of the catalog's structure is the tenant's to keep: the ids before it
   * are not known any more.) One that ended unfinished is not retried: the seeding imports the
   * items it did not write again.
   */
  private async resumeImports(tenantId: number): Promise<void> {
    const recordedItems = new Set((await this.records.of(tenantId, 'item')).map((r) => r.key));
    for (const job of await this.records.of(tenantId, 'import')) {
      if (job.key === 'catalog') continue;
      const [from, to] = (job.key ?? '').replace('items:', '').split('-').map(Number);
      if (from === undefined || to === undefined) continue;
      const skus = [...sampleItems(from, to)].map((item) => item.sku);
      if (skus.every((sku) => recordedItems.has(sku))) continue;
      await this.finishImport(tenantId, Number(job.resourceId), undefined, undefined, {
        failIfUnfinished: false,
      });
    }
  }

  private async seedStores(tenantId: number, progress: SampleProgress): Promise<void> {
    const { company } = this.needs;
    const stores = await this.records.keys(tenantId, 'store');
    const types = await this.records.keys(tenantId, 'device-type');
    const devices = await this.records.keys(tenantId, 'physical-device');
    const logical = await this.records.keys(tenantId, 'logical-device');
    for (const kind of SAMPLE_DEVICE_KINDS) {
      if (types.has(kind.key)) continue;
      const id = await company.createDeviceType(tenantId, kind.type);
      await this.records.add(tenantId, [
        { kind: 'device-type', resourceId: String(id), key: kind.key },
      ]);
      types.set(kind.key, String(id));
    }
    let done = 0;
    for (const store of SAMPLE_STORES) {
      let storeId = stores.get(store.key);
      if (!storeId) {
        const id = await company.createStore(tenantId, {
          Name: store.name,
          Description: `Open ${store.hours}`,
          Address: store.address,
          Location: { Longitude: store.longitude, Latitude: store.latitude },
        });
        storeId = String(id);
        await this.records.add(tenantId, [{ kind: 'store', resourceId: storeId, key: store.key }]);
      }
      for (const kind of SAMPLE_DEVICE_KINDS) {
        const deviceId = sampleDeviceId(store, kind.key);
        if (!devices.has(deviceId)) {
          await this.unlessTaken(() =>
            company.createPhysicalDevice(tenantId, {
              DeviceId: deviceId,
              Description: `${store.name}: ${kind.description}`,
              StoreId: Number(storeId),
            }),
          ).then((made) =>
            made
              ? this.records.add(tenantId, [
                  { kind: 'physical-device', resourceId: deviceId, key: deviceId },
                ])
              : undefined,
          );
        }
        const logicalId = sampleLogicalDeviceId(store, kind.key);
        if (!logical.has(logicalId)) {
          await this.unlessTaken(() =>
            company.createLogicalDevice(tenantId, deviceId, {
              DeviceId: logicalId,
              Description: `${kind.type} app, ${store.name}`,
              DeviceTypeId: Number(types.get(kind.key)),
            }),
          ).then((made) =>
            made
              ? this.records.add(tenantId, [
                  {
                    kind: 'logical-device',
                    resourceId: `${deviceId}/${logicalId}`,
                    key: logicalId,
                  },
                ])
              : undefined,
          );
        }
      }
      progress('stores', ++done, SAMPLE_STORES.length);
    }
  }

  /** Runs a create; false when the tenant already has a resource of that id (theirs, kept). */
  private async unlessTaken(create: () => Promise<void>): Promise<boolean> {
    try {
      await create();
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') return false;
      throw error;
    }
  }

  private async seedActivity(tenantId: number, progress: SampleProgress): Promise<void> {
    if ((await this.records.keys(tenantId, 'analytics')).has('logs')) return;
    const itemIds = await this.records.keys(tenantId, 'item');
    const titles = new Map<string, string>();
    const first = Math.min(itemIds.size, ACTIVITY_ITEMS);
    for (const item of sampleItems(1, Math.max(first, 1)))
      titles.set(item.sku, String(item.record['Title']));
    const items = [...itemIds]
      .filter(([sku]) => titles.has(sku))
      .map(([sku, id]) => ({ id: Number(id), title: titles.get(sku)! }));
    const storeIds = await this.records.keys(tenantId, 'store');
    const devices = new Set(
      (await this.records.of(tenantId, 'physical-device')).map((r) => r.resourceId),
    );
    const stores: ActivityStore[] = SAMPLE_STORES.filter((s) => storeIds.has(s.key))
      .map((s) => ({
        id: Number(storeIds.get(s.key)),
        name: s.name,
        devices: SAMPLE_DEVICE_KINDS.map((kind) => ({
          id: sampleDeviceId(s, kind.key),
          description: `${s.name}: ${kind.description}`,
        })).filter((d) => devices.has(d.id)),
      }))
      .filter((s) => s.devices.length > 0);
    const now = new Date();
    for (const { day, batch } of sampleActivity(items, stores, now)) {
      await this.needs.analytics.ingest(tenantId, batch);
      progress('activity', SAMPLE_ANALYTICS_DAYS - day, SAMPLE_ANALYTICS_DAYS);
    }
    await this.records.add(tenantId, [{ kind: 'analytics', resourceId: 'logs', key: 'logs' }]);
    for (const date of recentDays(now, TRENDING_DAYS))
      await this.needs.analytics.trending(tenantId, date);
  }
}
