// The catalog module: items with variants, prices and dynamic attributes, brands, the category
// tree, tags, price types, and the assets related to items, brands and categories, under
// /private/catalog. It needs the storage module's assets, through CatalogAssets.
import type { AppModule, ModuleContext } from '../../module.ts';
import { relationRoutes, relationsTag } from './asset-relations/relation-routes.ts';
import { RelationService } from './asset-relations/relation-service.ts';
import { attributeRoutes, attributeTypesTag } from './attributes/attribute-routes.ts';
import { AttributeService } from './attributes/attribute-service.ts';
import { brandRoutes, brandsTag } from './brands/brand-routes.ts';
import { BrandService } from './brands/brand-service.ts';
import { categoriesTag, categoryRoutes } from './categories/category-routes.ts';
import { CategoryTreeItem } from './categories/category-schemas.ts';
import { CategoryService } from './categories/category-service.ts';
import type { CatalogAssets } from './catalog-assets.ts';
import { giveUpJob } from './job-lease.ts';
import { exportRoutes } from './exports/export-routes.ts';
import { EXPORT_QUEUE, ExportService } from './exports/export-service.ts';
import { importExportTag, importRoutes } from './imports/import-routes.ts';
import { IMPORT_QUEUE, ImportService } from './imports/import-service.ts';
import { itemRoutes, itemsTag } from './items/item-routes.ts';
import { ItemService } from './items/item-service.ts';
import { VariantService } from './items/variant-service.ts';
import { priceTypeRoutes, priceTypesTag } from './price-types/price-type-routes.ts';
import { PriceTypeService } from './price-types/price-type-service.ts';
import { restoreRoutes } from './restores/restore-routes.ts';
import { searchRoutes } from './search/search-routes.ts';
import { SearchService } from './search/search-service.ts';
import { tagRoutes, tagsTag } from './tags/tag-routes.ts';
import { TagService } from './tags/tag-service.ts';
import { catalogHistoryRoutes } from './catalog-history-routes.ts';
import { catalogErrorCodes } from './catalog-errors.ts';

/** Its commands of the CLI (src/main.ts). */
export { catalogCommands } from './catalog-commands.ts';

export interface CatalogServices {
  items: ItemService;
  variants: VariantService;
  attributes: AttributeService;
  brands: BrandService;
  categories: CategoryService;
  tags: TagService;
  priceTypes: PriceTypeService;
  search: SearchService;
  imports: ImportService;
  exports: ExportService;
  relations: RelationService;
}

export type { CatalogAssets } from './catalog-assets.ts';

/** What the catalog needs of other modules (passed in by module-wiring.ts). */
export interface CatalogNeeds {
  /**
   * The storage module's assets: import files are read from them, export files written to them,
   * and items, brands and categories relate them.
   */
  assets: CatalogAssets;
}

/** Replaceable parts (tests stand in their own). */
export interface CatalogOptions {
  /** Awaited before each chunk of an import commits: a test holds an import there. */
  importBeforeChunk?: () => Promise<void>;
}

export function createCatalogModule(
  context: ModuleContext,
  needs: CatalogNeeds,
  options: CatalogOptions = {},
): AppModule<CatalogServices> {
  const db = context.database;
  const leaseSeconds = context.config.catalogJobLeaseSeconds;
  const imports = new ImportService(db, needs.assets, context.jobs, {
    leaseSeconds,
    maxBytes: context.config.importMaxBytes,
    maxRecordBytes: context.config.importMaxRecordBytes,
    ...(options.importBeforeChunk ? { beforeChunk: options.importBeforeChunk } : {}),
  });
  const exports = new ExportService(db, needs.assets, context.jobs, leaseSeconds);
  let sweeper: NodeJS.Timeout | undefined;
  // Jobs whose worker died (their lease ran out) are sent again by any instance.
  const sweep = async () => {
    try {
      await imports.resumeOrphans();
      await exports.resumeOrphans();
    } catch (error) {
      context.log()?.warn({ err: error }, 'could not look for orphaned catalog jobs');
    }
  };
  const attributes = new AttributeService(db);
  const variants = new VariantService(db);
  const items = new ItemService(db, attributes, variants);
  const brands = new BrandService(db);
  const categories = new CategoryService(db);
  const relations = new RelationService(db, needs.assets, {
    items: (tenantId, id) => items.exists(tenantId, id),
    brands: (tenantId, id) => brands.exists(tenantId, id),
    categories: (tenantId, id) => categories.exists(tenantId, id),
  });
  needs.assets.onForcedDelete((sql, tenantId, assetId) =>
    relations.removeAllOf(sql, tenantId, assetId),
  );
  const services: CatalogServices = {
    items,
    variants,
    attributes,
    brands,
    categories,
    tags: new TagService(db),
    priceTypes: new PriceTypeService(db),
    search: new SearchService(db, needs.assets, context.config.searchExactCountLimit),
    imports,
    exports,
    relations,
  };
  return {
    name: 'catalog',
    errorCodes: catalogErrorCodes,
    permissions: { area: 'catalog' },
    openApiTags: [
      itemsTag,
      attributeTypesTag,
      brandsTag,
      categoriesTag,
      tagsTag,
      priceTypesTag,
      importExportTag,
      relationsTag,
    ],
    services,
    // The category tree node refers to itself, so it is a named schema at the root.
    schemas: [CategoryTreeItem],
    routes: async (app) => {
      await app.register(itemRoutes, { items: services.items, variants });
      await app.register(attributeRoutes, { attributes });
      await app.register(brandRoutes, { brands: services.brands });
      await app.register(categoryRoutes, { categories: services.categories });
      await app.register(tagRoutes, { tagService: services.tags });
      await app.register(priceTypeRoutes, { priceTypes: services.priceTypes });
      await app.register(catalogHistoryRoutes, { services, database: db });
      await app.register(searchRoutes, { search: services.search });
      await app.register(importRoutes, { imports });
      await app.register(exportRoutes, { exports });
      await app.register(relationRoutes, { relations });
      await app.register(restoreRoutes, { items, brands, categories });
    },
    queues: [
      {
        name: IMPORT_QUEUE,
        handler: async (data: { tenantId: number; importId: number }) =>
          imports.run(data.tenantId, data.importId),
        // The sweeper sends an import again to resume it: its crashes count per import.
        runKey: (data: { tenantId: number; importId: number }) =>
          `${data.tenantId}:import:${data.importId}`,
        poisoned: (data: { tenantId: number; importId: number }, reason) =>
          giveUpJob(db, 'catalog_imports', data.tenantId, data.importId, reason),
        retryLimit: 3,
        retryDelaySeconds: 5,
        // A long import runs for hours; its lease, not pg-boss's expiry, tells whether it died.
        expireInSeconds: 23 * 3600,
        concurrency: 1,
      },
      {
        name: EXPORT_QUEUE,
        handler: async (data: { tenantId: number; exportId: number }) =>
          exports.run(data.tenantId, data.exportId),
        runKey: (data: { tenantId: number; exportId: number }) =>
          `${data.tenantId}:export:${data.exportId}`,
        poisoned: (data: { tenantId: number; exportId: number }, reason) =>
          giveUpJob(db, 'catalog_exports', data.tenantId, data.exportId, reason),
        retryLimit: 3,
        retryDelaySeconds: 5,
        expireInSeconds: 23 * 3600,
        concurrency: 1,
      },
    ],
    start: async () => {
      await sweep();
      sweeper = setInterval(() => void sweep(), leaseSeconds * 1000);
      sweeper.unref();
    },
    stop: async () => {
      clearInterval(sweeper);
      await imports.stop();
    },
  };
}
