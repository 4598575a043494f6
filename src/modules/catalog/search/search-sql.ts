// Builds the SQL statement of an item search that counts every match: the matching items (from
// the narrow search rows, tenant first, text through the GIN index on (tenant_id,
// search_vector)), their count, one ordered page of their stored JSON documents and, when asked
// for, the navigation counts, all over the same matching set. With `exactLimit`, a text search
// gathers at most that many matches plus one: more, and the service asks the estimating
// statement (search-estimate-sql.ts) instead.
// Every value is a bind parameter; only the shape of the statement varies with the criteria.
import {
  orderKey,
  searchFilters,
  statementParams,
  textQuery,
  type StatementParams,
} from './search-filters-sql.ts';
import { facetColumns, facetsCte, navigationSelects } from './search-navigation-sql.ts';

export type SearchOrder = 'relevance' | 'title' | 'price' | 'dateAdded' | 'rating' | 'id';

export interface SearchCriteria {
  tenantId: number;
  /** Query words (already split); undefined for no text criterion, [] to match nothing. */
  words?: string[];
  /** Every word a prefix (the simple search) instead of only the last one. */
  prefixAll: boolean;
  /** A word of 5+ letters also matches the tenant's words one edit away. */
  typos: boolean;
  categoryId?: number;
  includeSubcategories: boolean;
  brandId?: number;
  tagId?: number;
  defaultItemId?: number;
  sku?: string;
  uuid?: string;
  itemIds?: number[];
  priceTypeId?: number;
  minPrice?: number;
  maxPrice?: number;
  attributes: { typeId: number; value: string }[];
  onlyMasterItems: boolean;
  includePassiveItems: boolean;
  order: SearchOrder;
  descending: boolean;
  skip: number;
  take: number;
  staticNavigation: boolean;
  dynamicNavigation: boolean;
  /** Answer the asset ids of the page's items' default images (column default_images). */
  defaultImages?: boolean;
  /** Answer, per referenced id, whether it exists (the full search's 400 for unknown ids). */
  checkReferences: boolean;
}

export interface SearchStatement {
  sql: string;
  params: unknown[];
  /** The body fields whose existence the statement answers, as columns ref_0, ref_1, … */
  references: string[];
}

/**
 * @param exactLimit a text search counts, ranks and navigates at most this many matches; it
 *   answers a total of exactLimit + 1 (and no page) when there are more.
 */
export function buildSearch(c: SearchCriteria, exactLimit = Infinity): SearchStatement {
  const { params, bind } = statementParams(c.tenantId);
  const from = ['item_search_rows s'];
  const text = c.words !== undefined && c.words.length > 0;
  const ctes: string[] = [];
  const textConditions: string[] = [];
  if (c.words !== undefined && !text) textConditions.push('false');
  if (text) {
    ctes.push(textQuery(c, bind));
    from.push('q');
    textConditions.push('s.search_vector @@ q.q');
  }
  const filters = searchFilters(c, bind);
  const where = [...filters.conditions, ...textConditions];
  // Without text or other filters the total is read from item_search_counts.
  const counter = c.words === undefined && filters.onlyStatusAndVariant;
  const bounded = text && Number.isFinite(exactLimit);

  const order = text || c.order !== 'relevance' ? c.order : 'id';
  const key = orderKey(c, bind, order);
  const direction = c.descending ? 'desc' : 'asc';
  const columns = ['s.item_id as id', 's.category_id', 's.brand_id'];
  if (key) columns.push(`${key} as k`);
  // Where the row is, to rank the matches without looking them up by key.
  if (order === 'relevance') columns.push('s.ctid as row_tid');
  columns.push(...facetColumns(c));
  const matches = `select ${columns.join(', ')} from ${from.join(', ')} where ${where.join(' and ')}${
    bounded ? ` limit ${exactLimit + 1}` : ''
  }`;
  // Above the limit nothing but the count is used: the service asks the estimate instead.
  const within = bounded ? `(select n from counted) <= ${exactLimit}` : 'true';

  const skip = bind(c.skip);
  const take = bind(c.take);
  let page: string;
  let pageOrder: string;
  if (order === 'relevance') {
    page = `select m.id, ts_rank(s.search_vector, q.q) as r
              from matches m join item_search_rows s on s.ctid = m.row_tid, q
             where ${within}
             order by r desc, m.id offset ${skip} limit ${take}`;
    pageOrder = 'p.r desc, p.id';
  } else if (key) {
    page = `select id, k from matches where ${within} order by k ${direction} nulls last, id offset ${skip} limit ${take}`;
    pageOrder = `p.k ${direction} nulls last, p.id`;
  } else {
    page = `select id from matches where ${within} order by id ${direction} offset ${skip} limit ${take}`;
    pageOrder = `p.id ${direction}`;
  }

  const selects = [
    '(select n from counted) as total',
    pageDocuments(pageOrder),
    ...navigationSelects(c, filters.categoryParam),
  ];
  if (c.defaultImages) selects.push(DEFAULT_IMAGES);
  const references = c.checkReferences ? referenceChecks(c, bind, selects) : [];
  // The navigations' counts: one pass over the matches, one grouping set per list.
  const facets = facetsCte(c, bounded ? `matches where ${within}` : 'matches');
  // Each of the grouping sets puts every match in exactly one group: its counts add up to the
  // total (no second pass over the matches). A bounded search counts its few matches first.
  const counted = counter
    ? `select coalesce(sum(items), 0)::int as n from item_search_counts
        where tenant_id = $1${c.includePassiveItems ? '' : ' and item_status_id = 1'}${c.onlyMasterItems ? ' and master' : ''}`
    : facets && !bounded
      ? `select coalesce(sum(n), 0)::int as n from facets where ${c.staticNavigation ? 'by_category' : 'by_values'}`
      : 'select count(*)::int as n from matches';
  // Navigations and relevance read the matches several times: they are gathered once. Otherwise
  // the count and the page are planned each on its own, so that a page in an indexed order
  // (a deep page by Title) walks that index instead of sorting every match.
  const gather = facets !== undefined || order === 'relevance';
  ctes.push(`matches as ${gather ? '' : 'not '}materialized (${matches})`);
  if (facets && !bounded) ctes.push(facets, `counted as (${counted})`);
  else ctes.push(`counted as (${counted})`, ...(facets ? [facets] : []));
  ctes.push(`page as (${page})`);
  const sql = `with ${ctes.join(',\n')}
select ${selects.join(',\n       ')}`;
  return { sql, params, references };
}

/** The select-list entry `items`: the page's stored documents as one JSON array, in page order. */
export const pageDocuments = (pageOrder: string) =>
  `(select '[' || coalesce(string_agg(i.document, ',' order by ${pageOrder}), '') || ']'
        from page p join items i on i.tenant_id = $1 and i.id = p.id) as items`;

/** The select-list entry `default_images`: the page items' default images' asset ids. */
// The unique index on defaults (tenant, item, kind) finds each page item's one default image.
export const DEFAULT_IMAGES = `(select coalesce(json_agg(json_build_object('ItemId', a.item_id, 'AssetId', a.asset_id) order by a.item_id), '[]')::text
        from page p join item_assets a on a.tenant_id = $1 and a.item_id = p.id and a.kind = 'image' and a.is_default) as default_images`;

/** Adds an `exists` column per referenced id to `selects`; answers the fields they check. */
function referenceChecks(
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
