// The catalog module: items with variants, prices and dynamic attributes, brands, the category
// tree, tags and price types, under /private/catalog.
import type { AppModule, ModuleContext } from '../../module.ts';
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
import { searchRoutes } from './search/search-routes.ts';
import { SearchService } from './search/search-service.ts';
import { tagRoutes } from './tags/tag-routes.ts';
import { TagService } from './tags/tag-service.ts';

export interface CatalogServices {
  items: ItemService;
  variants: VariantService;
  attributes: AttributeService;
  brands: BrandService;
  categories: CategoryService;
  tags: TagService;
  priceTypes: PriceTypeService;
  search: SearchService;
}

export function createCatalogModule(context: ModuleContext): AppModule<CatalogServices> {
  const db = context.database;
  const attributes = new AttributeService(db);
  const variants = new VariantService(db);
  const services: CatalogServices = {
    items: new ItemService(db, attributes, variants),
    variants,
    attributes,
    brands: new BrandService(db),
    categories: new CategoryService(db),
    tags: new TagService(db),
    priceTypes: new PriceTypeService(db),
    search: new SearchService(db),
  };
  return {
    name: 'catalog',
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
      await app.register(searchRoutes, { search: services.search });
    },
  };
}
