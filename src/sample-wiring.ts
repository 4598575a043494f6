// What the sample module needs of the others (src/modules/sample/sample-needs.ts), made of their
// services: the same calls the API's routes make, so that the sample is written as a client's
// data is. module-wiring.ts passes it to the sample module.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from './domain/domain-error.ts';
import type { AnalyticsServices } from './modules/analytics/analytics-module.ts';
import type { CatalogServices } from './modules/catalog/catalog-module.ts';
import type { CompanyServices } from './modules/company/company-module.ts';
import type { SampleNeeds } from './modules/sample/sample-module.ts';
import type { StorageServices } from './modules/storage/storage-module.ts';

const ALL = { skip: 0, take: 1_000_000 };
const ANY_VERSION = () => {};
const ENDED = new Set(['Succeeded', 'Failed', 'Cancelled']);

interface TreeNode {
  Id: number;
  CategoryTreeItems: TreeNode[];
}

/** Category ids with their depth, from the tree. */
function flatten(nodes: TreeNode[], depth = 0, into: { id: number; depth: number }[] = []) {
  for (const node of nodes) {
    into.push({ id: node.Id, depth });
    flatten(node.CategoryTreeItems, depth + 1, into);
  }
  return into;
}

export function sampleNeedsOf(modules: {
  catalog: CatalogServices;
  storage: StorageServices;
  company: CompanyServices;
  analytics: AnalyticsServices;
}): SampleNeeds {
  const { catalog, storage, company, analytics } = modules;
  return {
    catalog: {
      createImport: async (tenantId, baseUrl, jsonl) =>
        (
          await catalog.imports.create(
            tenantId,
            baseUrl,
            { format: 'jsonl', errorPolicy: 'SkipFailedRows', createMissing: true },
            { body: Readable.from([jsonl]), mimeType: 'application/x-ndjson' },
            false,
          )
        ).Id,
      runImport: async (tenantId, jobId, onProgress) => {
        await catalog.imports.run(tenantId, jobId, (job) => onProgress(job.RowsRead));
        let job = await catalog.imports.get(tenantId, jobId);
        // Another instance holds it (a run resumed after a stop): wait for its end.
        while (!ENDED.has(job.State)) {
          await sleep(500);
          job = await catalog.imports.get(tenantId, jobId);
        }
        return {
          state: job.State,
          rowsWritten: job.RowsWritten,
          rowsFailed: job.RowsFailed,
          error: job.Error,
        };
      },
      importedItems: async (tenantId, jobId) => {
        const written: { sku: string; itemId: number }[] = [];
        for await (const text of catalog.imports.results(tenantId, jobId))
          for (const line of text.split('\n')) {
            if (!line) continue;
            const result = JSON.parse(line) as { Status: string; ItemId?: number; SKU?: string };
            if (result.Status === 'Written' && result.ItemId !== undefined && result.SKU)
              written.push({ sku: result.SKU, itemId: result.ItemId });
          }
        return written;
      },
      ids: async (tenantId) => {
        const [tree, brands, tags, priceTypes, attributeTypes] = await Promise.all([
          catalog.categories.tree(tenantId),
          catalog.brands.list(tenantId, ALL),
          catalog.tags.list(tenantId, ALL),
          catalog.priceTypes.list(tenantId, ALL),
          catalog.attributes.list(tenantId, ALL),
        ]);
        return {
          categories: flatten(tree.Categories).map((c) => c.id),
          brands: brands.Results.map((r) => r.Id),
          tags: tags.Results.map((r) => r.Id),
          priceTypes: priceTypes.Results.map((r) => r.Id),
          attributeTypes: attributeTypes.Results.map((r) => r.Id),
        };
      },
      deleteItems: async (tenantId, itemIds) => {
        // Newest first: variants before the items their groups default to.
        for (const id of [...itemIds].sort((a, b) => b - a))
          await catalog.items.delete(tenantId, id, ANY_VERSION).catch(ignoreNotFound);
      },
      deleteCategories: async (tenantId, categoryIds) => {
        const wanted = new Set(categoryIds);
        const deepestFirst = flatten((await catalog.categories.tree(tenantId)).Categories)
          .filter((c) => wanted.has(c.id))
          .sort((a, b) => b.depth - a.depth);
        for (const { id } of deepestFirst)
          await catalog.categories.delete(tenantId, id, ANY_VERSION).catch(ignoreInUse);
      },
      deleteBrand: (tenantId, id) => catalog.brands.delete(tenantId, id, ANY_VERSION),
      deleteTag: (tenantId, id) => catalog.tags.delete(tenantId, id, ANY_VERSION),
      deletePriceType: (tenantId, id) => catalog.priceTypes.delete(tenantId, id, ANY_VERSION),
      deleteAttributeType: (tenantId, id) => catalog.attributes.delete(tenantId, id, ANY_VERSION),
    },
    storage: {
      upload: async (tenantId, baseUrl, file, bytes) =>
        (await storage.assets.createFromBuffer(tenantId, baseUrl, file, bytes)).Id,
      delete: (tenantId, assetId) =>
        storage.assets.delete(tenantId, assetId, { force: false, checkVersion: ANY_VERSION }),
    },
    company: {
      createStore: async (tenantId, store) =>
        (await company.stores.create(tenantId, store)).value.Id,
      createDeviceType: async (tenantId, description) =>
        (await company.deviceTypes.create(tenantId, { Description: description })).value.Id,
      createPhysicalDevice: async (tenantId, device) => {
        await company.physicalDevices.create(tenantId, device);
      },
      createLogicalDevice: async (tenantId, physicalDeviceId, device) => {
        await company.logicalDevices.create(tenantId, physicalDeviceId, device);
      },
      deleteStore: (tenantId, id) => company.stores.delete(tenantId, id, ANY_VERSION),
      deleteDeviceType: (tenantId, id) => company.deviceTypes.delete(tenantId, id, ANY_VERSION),
      deletePhysicalDevice: (tenantId, id) =>
        company.physicalDevices.delete(tenantId, id, ANY_VERSION),
      deleteLogicalDevice: (tenantId, physicalDeviceId, id) =>
        company.logicalDevices.delete(tenantId, physicalDeviceId, id, ANY_VERSION),
    },
    analytics: {
      ingest: (tenantId, records) => analytics.analytics.ingest(tenantId, records),
      trending: (tenantId, date) => analytics.trending.run(tenantId, date),
      forget: (tenantId, physicalDeviceIds, itemIds) =>
        analytics.analytics.forgetDevicesAndItems(tenantId, physicalDeviceIds, itemIds),
    },
  };
}

const ignoreNotFound = (error: unknown) => {
  if (!(error instanceof DomainError && error.kind === 'not-found')) throw error;
};
/** A category that holds the tenant's own items or categories stays (the remover counts it kept). */
const ignoreInUse = (error: unknown) => {
  if (!(error instanceof DomainError && (error.kind === 'not-found' || error.kind === 'conflict')))
    throw error;
};
