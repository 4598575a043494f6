// The parts of a search statement that every form of it shares: the bound parameters, the
// text query, and the criteria other than text as conditions on the narrow search row `s`.
import type { SearchCriteria } from './search-sql.ts';
import { subtreeSql } from '../categories/category-depth.ts';

export interface StatementParams {
  /** $1 is always the tenant. */
  params: unknown[];
  /** Adds a parameter and answers its placeholder. */
  bind: (value: unknown) => string;
}

export function statementParams(tenantId: number): StatementParams {
  const params: unknown[] = [tenantId];
  return {
    params,
    bind: (value) => {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

/** The CTE `q`: the query's tsquery (folded words, prefix, typo alternatives: textQueryOf). */
export function textQuery(c: SearchCriteria, bind: StatementParams['bind']): string {
  return `q as materialized (select ${bind(c.query ?? null)}::tsquery as q)`;
}

/**
 * The statement that builds the text query of a search's words, sent before the search: its
 * parameters are the tenant, the words, whether every word is a prefix and whether typos count.
 */
export const TEXT_QUERY = "select item_search_query($1, $2::text[], true, $3, $4, '')::text as q";

export interface SearchFilters {
  /** Conditions on `s`, tenant first, without the text criterion. */
  conditions: string[];
  /**
   * The same conditions for a scan that the text criterion drives (through the GIN index), with
   * the tenant's written as a filter: see TENANT_FILTER.
   */
  textScan: string[];
  /** Nothing beyond status and variant: the total can be read from item_search_counts. */
  onlyStatusAndVariant: boolean;
  /** The CategoryId filter's parameter: the category navigation stops there. */
  categoryParam?: string;
}

/**
 * The tenant condition of a scan that the GIN index drives, where no index may read it. Every
 * word of a search row's vectors names its tenant (migration 0262), so the GIN scan finds only
 * the tenant's rows; the planner cannot know that, and in a database of several tenants it
 * intersected that scan with the tenant's whole range of a B-tree (its share of the rows looks
 * selective): at 100k items beside a tenant of 1M, 3.5 ms a scan for 100,000 entries, and 30 ms
 * instead of 6 for the typo's statement. On Citus, which sends a statement to its tenant's shard
 * only when each table has `tenant_id = $1`, the condition stays as it is.
 */
const TENANT_FILTER = 's.tenant_id + 0 = $1';

export function searchFilters(c: SearchCriteria, bind: StatementParams['bind']): SearchFilters {
  const where = ['s.tenant_id = $1'];
  if (!c.includePassiveItems) where.push('s.item_status_id = 1');
  if (c.onlyMasterItems) where.push('(s.default_item_id is null or s.default_item_id = s.item_id)');
  const statusAndVariant = where.length;
  let categoryParam: string | undefined;
  if (c.categoryId !== undefined) {
    const id = bind(c.categoryId);
    categoryParam = id;
    where.push(
      c.includeSubcategories ? `s.category_id in (${subtreeSql(id)})` : `s.category_id = ${id}`,
    );
  }
  if (c.brandId !== undefined) where.push(`s.brand_id = ${bind(c.brandId)}`);
  if (c.defaultItemId !== undefined) where.push(`s.default_item_id = ${bind(c.defaultItemId)}`);
  if (c.sku !== undefined)
    where.push(`s.item_id in (select id from items where tenant_id = $1 and sku = ${bind(c.sku)})`);
  if (c.uuid !== undefined)
    where.push(
      `s.item_id in (select id from items where tenant_id = $1 and uuid = ${bind(c.uuid)})`,
    );
  if (c.itemIds !== undefined) where.push(`s.item_id = any(${bind(c.itemIds)}::bigint[])`);
  if (c.tagId !== undefined) where.push(`s.facet_tag_ids @> array[${bind(c.tagId)}::bigint]`);
  if (c.minPrice !== undefined || c.maxPrice !== undefined) {
    // The facet prices are what the customer pays (coalesce(discount, normal)), per price type.
    const price = c.priceTypeId !== undefined ? priceOf(bind(c.priceTypeId)) : 'f.price';
    const conditions: string[] = [];
    if (c.minPrice !== undefined) conditions.push(`${price} >= ${bind(c.minPrice)}::float8`);
    if (c.maxPrice !== undefined) conditions.push(`${price} <= ${bind(c.maxPrice)}::float8`);
    where.push(
      c.priceTypeId !== undefined
        ? conditions.join(' and ')
        : `exists (select 1 from unnest(s.facet_prices) f (price) where ${conditions.join(' and ')})`,
    );
  }
  for (const a of c.attributes)
    where.push(
      `exists (select 1 from item_attributes a join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
                where a.tenant_id = $1 and a.item_id = s.item_id and a.type_id = ${bind(a.typeId)} and lower(v.value) = lower(${bind(a.value)}))`,
    );
  return {
    conditions: where,
    textScan: c.distributed ? where : [TENANT_FILTER, ...where.slice(1)],
    onlyStatusAndVariant: where.length === statusAndVariant,
    ...(categoryParam ? { categoryParam } : {}),
  };
}

/** A narrow row's effective price of the price type bound as `typeId` (null without one). */
export const priceOf = (typeId: string) =>
  `s.facet_prices[array_position(s.facet_price_type_ids, ${typeId}::bigint)]`;

/** The ordering key of the narrow row `s`, or undefined for the id order. */
export function orderKey(
  c: SearchCriteria,
  bind: StatementParams['bind'],
  order = c.order,
): string | undefined {
  switch (order) {
    case 'title':
      return 's.title_key';
    case 'dateAdded':
      return 's.date_added';
    case 'rating':
      return 's.rating';
    case 'price':
      return priceOf(bind(c.priceTypeId));
    default:
      return undefined;
  }
}
