// Builds the one SQL statement of an item search: the matching items (from the narrow search
// rows, tenant first, text through the GIN index on (tenant_id, search_vector)), their count,
// one ordered page of their stored JSON documents and, when asked for, the navigation counts,
// all over the same matching set.
// Every value is a bind parameter; only the shape of the statement varies with the criteria.

/** Above this many matches the relevance order is by tier (a match in Title or Name first, then
 *  by id) instead of ts_rank over every match: ranking is what makes broad queries slow. */
export const RANK_LIMIT = 5000;

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

export function buildSearch(c: SearchCriteria): SearchStatement {
  const params: unknown[] = [c.tenantId];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // The narrow search rows (migration 0140); `items` only gives the page's documents and the
  // rare filters on columns the narrow rows do not copy (SKU, UUID).
  const where = ['s.tenant_id = $1'];
  const from = ['item_search_rows s'];
  const text = c.words !== undefined && c.words.length > 0;
  let ctes = '';
  if (c.words !== undefined && !text) where.push('false');
  if (text) {
    // The query is built once (folded words, prefix, typo alternatives from the word list).
    const args = `$1, ${bind(c.words)}::text[], true, ${bind(c.prefixAll)}, ${bind(c.typos)}`;
    ctes = `q as materialized (select item_search_query(${args}, '') as q),\n`;
    from.push('q');
    where.push('s.search_vector @@ q.q');
  }
  if (!c.includePassiveItems) where.push('s.item_status_id = 1');
  if (c.onlyMasterItems) where.push('(s.default_item_id is null or s.default_item_id = s.item_id)');
  // Filters beyond status and variant: without them (and without text) the total is read from
  // item_search_counts instead of counting the tenant's items.
  const filtered = where.length;
  // The category filter's parameter: the category navigation stops there (see categoryFacets).
  let categoryParam: string | undefined;
  if (c.categoryId !== undefined) {
    const id = bind(c.categoryId);
    categoryParam = id;
    where.push(
      c.includeSubcategories
        ? `s.category_id in (with recursive tree as (
             select id from categories where tenant_id = $1 and id = ${id}
             union all select k.id from categories k join tree on k.tenant_id = $1 and k.parent_id = tree.id)
           select id from tree)`
        : `s.category_id = ${id}`,
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
  if (c.itemIds !== undefined) where.push(`s.item_id = any(${bind(c.itemIds)}::int[])`);
  if (c.tagId !== undefined) where.push(`s.facet_tag_ids @> array[${bind(c.tagId)}::int]`);
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
  const counter = !text && c.words === undefined && where.length === filtered;

  const order = text || c.order !== 'relevance' ? c.order : 'id';
  const key = orderKey(order, c, bind);
  const direction = c.descending ? 'desc' : 'asc';
  const columns = ['s.item_id as id', 's.category_id', 's.brand_id'];
  if (key) columns.push(`${key} as k`);
  // The tier, and where the row is, to rank a few matches without looking them up by key.
  if (order === 'relevance')
    columns.push('(s.title_vector @@ q.q) as in_title', 's.ctid as row_tid');
  if (c.staticNavigation)
    columns.push('s.facet_tag_ids', 's.facet_price_type_ids', 's.facet_prices');
  if (c.dynamicNavigation) columns.push('s.facet_value_ids');
  const matches = `select ${columns.join(', ')} from ${from.join(', ')} where ${where.join(' and ')}`;

  const skip = bind(c.skip);
  const take = bind(c.take);
  let page: string;
  let pageOrder: string;
  if (order === 'relevance') {
    // Few matches: ts_rank over them all. Many: by tier, without reading every vector again.
    // One branch runs, the other is cut off by its one-time filter.
    page = `(select m.id, ts_rank(s.search_vector, q.q) as r, m.in_title
               from matches m join item_search_rows s on s.ctid = m.row_tid, q
              where (select n from counted) <= ${RANK_LIMIT}
              order by r desc, m.id offset ${skip} limit ${take})
            union all
            (select m.id, null, m.in_title from matches m
              where (select n from counted) > ${RANK_LIMIT}
              order by m.in_title desc, m.id offset ${skip} limit ${take})`;
    pageOrder = 'p.r desc nulls last, p.in_title desc, p.id';
  } else if (key) {
    page = `select id, k from matches order by k ${direction} nulls last, id offset ${skip} limit ${take}`;
    pageOrder = `p.k ${direction} nulls last, p.id`;
  } else {
    page = `select id from matches order by id ${direction} offset ${skip} limit ${take}`;
    pageOrder = `p.id ${direction}`;
  }

  const selects = [
    '(select n from counted) as total',
    `(select '[' || coalesce(string_agg(i.document, ',' order by ${pageOrder}), '') || ']'
        from page p join items i on i.tenant_id = $1 and i.id = p.id) as items`,
    `${c.staticNavigation ? staticNavigation(c.includeSubcategories ? categoryParam : undefined) : 'null'} as static_navigation`,
    `${c.dynamicNavigation ? DYNAMIC_NAVIGATION : 'null'} as dynamic_navigation`,
  ];
  if (c.defaultImages)
    // The unique index on defaults (tenant, item, kind) finds each page item's one default image.
    selects.push(`(select coalesce(json_agg(json_build_object('ItemId', a.item_id, 'AssetId', a.asset_id) order by a.item_id), '[]')::text
        from page p join item_assets a on a.tenant_id = $1 and a.item_id = p.id and a.kind = 'image' and a.is_default) as default_images`);
  const references: string[] = [];
  if (c.checkReferences) {
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
  }
  // The navigations' counts: one pass over the matches, one grouping set per list (see FACETS).
  const sets: string[] = [];
  const flags: string[] = [];
  if (c.staticNavigation) {
    sets.push(
      '(category_id)',
      '(brand_id)',
      '(facet_tag_ids)',
      '(facet_price_type_ids, facet_prices)',
    );
    flags.push(
      'grouping(category_id) = 0 as by_category',
      'grouping(brand_id) = 0 as by_brand',
      'grouping(facet_tag_ids) = 0 as by_tags',
      'grouping(facet_prices) = 0 as by_prices',
    );
  }
  if (c.dynamicNavigation) {
    sets.push('(facet_value_ids)');
    flags.push('grouping(facet_value_ids) = 0 as by_values');
  }
  const facets = sets.length
    ? `facets as materialized (select ${sets.join(', ').replace(/[()]/g, '')}, ${flags.join(', ')}, count(*)::int as n
         from matches group by grouping sets (${sets.join(', ')})),\n`
    : '';
  // Each of the grouping sets puts every match in exactly one group: its counts add up to the
  // total (no second pass over the matches).
  const counted = counter
    ? `select coalesce(sum(items), 0)::int as n from item_search_counts
        where tenant_id = $1${c.includePassiveItems ? '' : ' and item_status_id = 1'}${c.onlyMasterItems ? ' and master' : ''}`
    : sets.length
      ? `select coalesce(sum(n), 0)::int as n from facets where ${c.staticNavigation ? 'by_category' : 'by_values'}`
      : 'select count(*)::int as n from matches';
  // Navigations and relevance read the matches several times: they are gathered once. Otherwise
  // the count and the page are planned each on its own, so that a page in an indexed order
  // (a deep page by Title) walks that index instead of sorting every match.
  const gather = c.staticNavigation || c.dynamicNavigation || order === 'relevance';
  const sql = `with ${ctes}matches as ${gather ? '' : 'not '}materialized (${matches}),
${facets}counted as (${counted}),
page as (${page})
select ${selects.join(',\n       ')}`;
  return { sql, params, references };
}

/** A narrow row's effective price of the price type bound as `typeId` (null without one). */
const priceOf = (typeId: string) =>
  `s.facet_prices[array_position(s.facet_price_type_ids, ${typeId}::int)]`;

function orderKey(
  order: SearchOrder,
  c: SearchCriteria,
  bind: (value: unknown) => string,
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

// The navigation lists from the grouping sets of `facets`: categories and brands are counted
// there; tags, attribute values and prices are grouped there by the whole array (a few hundred
// distinct arrays among thousands of matches), then unnested (in the select list: unnest in FROM
// is a function scan per row). One hashing pass over the matches instead of a pass per list with
// every array element hashed (measured at 30k matches: 24 ms against 51 ms).
const staticNavigation = (categoryParam: string | undefined) => `(select json_build_object(
  'Categories', ${categoryFacets(categoryParam)},
  'Brands', (select coalesce(json_agg(json_build_object('Id', b.id, 'Name', b.name, 'Count', x.n) order by x.n desc, b.id), '[]')
               from facets x join brands b on b.tenant_id = $1 and b.id = x.brand_id
              where x.by_brand),
  'Tags', (select coalesce(json_agg(json_build_object('Id', g.id, 'Name', g.name, 'Count', x.n) order by x.n desc, g.id), '[]')
             from (select tag_id, sum(n)::int as n
                     from (select unnest(facet_tag_ids) as tag_id, n from facets where by_tags) t
                    group by tag_id) x
             join tags g on g.tenant_id = $1 and g.id = x.tag_id),
  'PriceRanges', (select coalesce(json_agg(json_build_object('PriceTypeId', t.id, 'PriceTypeSymbol', t.symbol,
                          'Min', x.low, 'Max', x.high) order by t.id), '[]')
                    from (select price_type_id, min(price) as low, max(price) as high
                            from (select unnest(facet_price_type_ids) as price_type_id, unnest(facet_prices) as price
                                    from facets where by_prices) p
                           group by price_type_id) x
                    join price_types t on t.tenant_id = $1 and t.id = x.price_type_id))::text)`;

/**
 * The category list: each category with matches of its own (`Count`, as a facet counts), and
 * with the matches in it or in any of its subcategories (`CountWithSubcategories`), which is what
 * the CategoryId filter selects, so that a list can show the TotalItemCount that choosing it
 * gives. Each category's own count (a group of `facets`) is added to it and to each of its
 * ancestors, climbing from the few categories that hold matches (a primary-key lookup per
 * level); under a CategoryId filter the climb stops at that category. `depth` only bounds it.
 */
const categoryFacets = (categoryParam: string | undefined) =>
  `(select coalesce(json_agg(json_build_object('Id', k.id, 'Name', k.name, 'Count', x.n,
                                               'CountWithSubcategories', r.n) order by x.n desc, k.id), '[]')
      from facets x
      join categories k on k.tenant_id = $1 and k.id = x.category_id
      join (with recursive up (id, n, depth) as (
              select category_id, n, 0 from facets where by_category and category_id is not null
              union all
              select k.parent_id, up.n, up.depth + 1 from up join categories k on k.tenant_id = $1 and k.id = up.id
               where k.parent_id is not null and up.depth < ${MAX_CATEGORY_DEPTH}${categoryParam ? ` and up.id <> ${categoryParam}` : ''})
            select id, sum(n)::int as n from up group by id) r on r.id = x.category_id
     where x.by_category)`;

/** Deeper than any real tree; only guards the climb against a cycle that should not exist. */
const MAX_CATEGORY_DEPTH = 100;

const DYNAMIC_NAVIGATION = `(select coalesce(json_agg(json_build_object('TypeId', d.id, 'TypeName', d.description, 'Values', v.vals) order by d.id), '[]')::text
   from (select dv.type_id, json_agg(json_build_object('TypeValueId', x.value_id, 'Value', dv.value, 'Count', x.n)
                                     order by x.n desc, x.value_id) as vals
           from (select value_id, sum(n)::int as n
                   from (select unnest(facet_value_ids) as value_id, n from facets where by_values) a
                  group by value_id) x
           join dynamic_attribute_values dv on dv.tenant_id = $1 and dv.id = x.value_id
          group by dv.type_id) v
   join dynamic_attribute_types d on d.tenant_id = $1 and d.id = v.type_id)`;
