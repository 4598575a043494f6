// The select-list entries of a search statement's answer row, whatever the statement's form:
// the page's documents, their default images, and whether the referenced ids exist.
import type { StatementParams } from './search-filters-sql.ts';
import type { SearchCriteria } from './search-sql.ts';

/** The entry `items`: the page's stored documents as one JSON array, in page order. */
export const pageDocuments = (pageOrder: string) =>
  `(select '[' || coalesce(string_agg(i.document, ',' order by ${pageOrder}), '') || ']'
        from page p join items i on i.tenant_id = $1 and i.id = p.id) as items`;

/** The entry `default_images`: the page items' default images' asset ids. */
// The unique index on defaults (tenant, item, kind) finds each page item's one default image.
export const DEFAULT_IMAGES = `(select coalesce(json_agg(json_build_object('ItemId', a.item_id, 'AssetId', a.asset_id) order by a.item_id), '[]')::text
        from page p join item_assets a on a.tenant_id = $1 and a.item_id = p.id and a.kind = 'image' and a.is_default) as default_images`;

/** Adds an `exists` entry per referenced id to `selects`; answers the fields they check. */
export function referenceChecks(
  c: SearchCriteria,
  bind: StatementParams['bind'],
  selects: string[],
): string[] {
  const references: string[] = [];
  const check = (field: string, table: string, id: number | undefined) => {
    if (id === undefined) return;
    selects.push(
      `exists (select 1 from ${table} where tenant_id = $1 and id = ${bind(id)}) as ref_${references.length}`,
    );
    references.push(field);
  };
  check('CategoryId', 'categories', c.categoryId);
  check('BrandId', 'brands', c.brandId);
  check('TagId', 'tags', c.tagId);
  check('PriceTypeId', 'price_types', c.priceTypeId);
  c.attributes.forEach((a, index) =>
    check(`DynamicAttributes.${index}.TypeId`, 'dynamic_attribute_types', a.typeId),
  );
  return references;
}
