// The catalog module's public face: its services and its routes under /private/catalog.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle } from '../../db/database.ts';
import { attributeRoutes } from './attributes/attribute-routes.ts';
import { AttributeService } from './attributes/attribute-service.ts';
import { brandRoutes } from './brands/brand-routes.ts';
import { BrandService } from './brands/brand-service.ts';
import { categoryRoutes } from './categories/category-routes.ts';
import { CategoryTreeItem } from './categories/category-schemas.ts';
import { CategoryService } from './categories/category-service.ts';
import { itemRoutes } from './items/item-routes.ts';
import { ItemService } from './items/item-service.ts';
import { VariantService } from './items/variant-service.ts';
import { priceTypeRoutes } from './price-types/price-type-routes.ts';
import { PriceTypeService } from './price-types/price-type-service.ts';
import { tagRoutes } from './tags/tag-routes.ts';
import { TagService } from './tags/tag-service.ts';

export interface CatalogModule {
  items: ItemService;
  variants: VariantService;
  attributes: AttributeService;
  brands: BrandService;
  categories: CategoryService;
  tags: TagService;
  priceTypes: PriceTypeService;
  /** Schemas that refer to themselves, added once at the root so the OpenAPI document has them. */
  addSharedSchemas(app: FastifyInstance): void;
  routes: FastifyPluginAsync;
}

export function createCatalogModule(db: DatabaseHandle): CatalogModule {
  const attributes = new AttributeService(db);
  const variants = new VariantService(db);
  const module: Omit<CatalogModule, 'routes' | 'addSharedSchemas'> = {
    items: new ItemService(db, attributes, variants),
    variants,
    attributes,
    brands: new BrandService(db),
    categories: new CategoryService(db),
    tags: new TagService(db),
    priceTypes: new PriceTypeService(db),
  };
  return {
    ...module,
    addSharedSchemas: (app) => app.addSchema(CategoryTreeItem),
    routes: async (app) => {
      await app.register(itemRoutes, { items: module.items, variants });
      await app.register(attributeRoutes, { attributes });
      await app.register(brandRoutes, { brands: module.brands });
      await app.register(categoryRoutes, { categories: module.categories });
      await app.register(tagRoutes, { tagService: module.tags });
      await app.register(priceTypeRoutes, { priceTypes: module.priceTypes });
    },
  };
}
