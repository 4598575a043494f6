// An item restored to a version of its history: that version's document (the item as the API
// showed it, kept by the change history) made back into a full update's body, and the refusal
// of a version that names what no longer exists, before anything is written.
import type { RawSql } from '../../../db/connection/database.ts';
import { catalogErrors } from '../catalog-errors.ts';
import { ITEM_FIELDS } from './item-fields.ts';
import type { ItemBody } from './item-schemas.ts';

/** The parts of an item's document a restore writes back. */
interface ItemVersion extends Record<string, unknown> {
  Prices?: { PriceTypeId: number; NormalPrice: number; DiscountPrice: number | null }[];
  DynamicAttributes?: { TypeId: number; Value: string }[];
  Tags?: { Id: number }[];
}

/**
 * The full update that gives the item `document`'s fields, prices, dynamic attributes (by their
 * text, so that a value since removed from its type comes back) and tags. DefaultItemId is left
 * out: the variant group is a relation among items, which a restore of one does not change.
 */
export function restoredItemBody(document: unknown): ItemBody {
  const version = document as ItemVersion;
  const body: Record<string, unknown> = {};
  for (const field of ITEM_FIELDS) body[field.wire] = version[field.wire] ?? null;
  body.Prices = (version.Prices ?? []).map((p) => ({
    PriceTypeId: p.PriceTypeId,
    NormalPrice: p.NormalPrice,
    DiscountPrice: p.DiscountPrice,
  }));
  body.DynamicAttributes = (version.DynamicAttributes ?? []).map((a) => ({
    TypeId: a.TypeId,
    Value: a.Value,
  }));
  body.Tags = (version.Tags ?? []).map((t) => ({ Id: t.Id }));
  return body as ItemBody;
}

async function missingIds(
  sql: RawSql,
  table: string,
  tenantId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await sql.query<{ id: number }>(
    `select id from ${table} where tenant_id = $1 and id = any($2::bigint[])`,
    [tenantId, ids],
  );
  const found = new Set(rows.map((r) => Number(r.id)));
  return ids.filter((id) => !found.has(id));
}

/**
 * 409 RestoreReferenceMissing naming the first brand, category, price type, dynamic attribute
 * type or tag of the version that was deleted since (the path as the history's Changes name it).
 */
export async function refuseMissingReferences(
  sql: RawSql,
  tenantId: number,
  body: ItemBody,
): Promise<void> {
  const checks: { table: string; ids: number[]; named: (id: number) => [string, string] }[] = [
    {
      table: 'categories',
      ids: body.CategoryId == null ? [] : [body.CategoryId],
      named: (id) => ['CategoryId', `category ${id}`],
    },
    {
      table: 'brands',
      ids: body.BrandId == null ? [] : [body.BrandId],
      named: (id) => ['BrandId', `brand ${id}`],
    },
    {
      table: 'price_types',
      ids: (body.Prices ?? []).map((p) => p.PriceTypeId!),
      named: (id) => [`Prices[PriceTypeId=${id}]`, `price type ${id}`],
    },
    {
      table: 'dynamic_attribute_types',
      ids: (body.DynamicAttributes ?? []).map((a) => a.TypeId),
      named: (id) => [`DynamicAttributes[TypeId=${id}]`, `dynamic attribute type ${id}`],
    },
    {
      table: 'tags',
      ids: (body.Tags ?? []).map((t) => t.Id),
      named: (id) => [`Tags[Id=${id}]`, `tag ${id}`],
    },
  ];
  for (const { table, ids, named } of checks) {
    const [missing] = await missingIds(sql, table, tenantId, ids);
    if (missing !== undefined) throw catalogErrors.restoreReferenceMissing(...named(missing));
  }
}
