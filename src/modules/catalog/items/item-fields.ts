// The item's own fields (its prices, dynamic attributes and tags are rows of their own): each wire
// name with its column of `items`, its SQL type and its default. Every TypeScript write of an
// item is made from this one list (item-service.ts's insert, update and lock, the import's chunk
// insert). The document that reads pass through is JSON the database builds in its triggers,
// where no TypeScript runs (item_document_text, ../sql/010-item-documents.sql); item-fields.test.ts
// holds that function's fields to this list (docs/design.md, "One map of the item's fields").
import type { ItemBody } from './item-schemas.ts';

export const ITEM_FIELDS = [
  { wire: 'SKU', column: 'sku', type: 'text' },
  { wire: 'RFID', column: 'rfid', type: 'text' },
  { wire: 'UUID', column: 'uuid', type: 'text' },
  { wire: 'Name', column: 'name', type: 'text' },
  { wire: 'Title', column: 'title', type: 'text' },
  { wire: 'Model', column: 'model', type: 'text' },
  { wire: 'ShortDescription', column: 'short_description', type: 'text' },
  { wire: 'LongDescription', column: 'long_description', type: 'text' },
  { wire: 'ItemStatusId', column: 'item_status_id', type: 'smallint', default: 1 },
  { wire: 'CategoryId', column: 'category_id', type: 'bigint' },
  { wire: 'BrandId', column: 'brand_id', type: 'bigint' },
  { wire: 'InStock', column: 'in_stock', type: 'boolean', default: false },
  { wire: 'PublicWebLink', column: 'public_web_link', type: 'text' },
  // numeric reads back as a string: float8 gives the number the API shows.
  { wire: 'Rating', column: 'rating', type: 'numeric(4,2)', read: 'rating::float8' },
] as const;

export type ItemField = (typeof ITEM_FIELDS)[number];
export type ItemFieldName = ItemField['wire'];

/** An item's own fields as the API names them, each with its value or null. */
export type ItemFieldValues = { [F in ItemFieldName]: NonNullable<ItemBody[F]> | null };

/** `sku, rfid, …`: the columns in the list's order. */
export const ITEM_COLUMNS = ITEM_FIELDS.map((f) => f.column).join(', ');

/** `sku, …, rating::float8 as "Rating"`: the columns read back under their wire names. */
export const ITEM_COLUMNS_AS_FIELDS = ITEM_FIELDS.map(
  (f) => `${'read' in f ? f.read : f.column} as "${f.wire}"`,
).join(', ');

/** The field's value in a write: the given one, else its default, else null. */
export function fieldValue(field: ItemField, given: unknown): unknown {
  return given ?? ('default' in field ? field.default : null);
}
