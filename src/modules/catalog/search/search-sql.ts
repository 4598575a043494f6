// Builds the one SQL statement of an item search: the matching items (tenant first, text through
// the GIN index on (tenant_id, search_vector)), their count, one ordered page of their stored
// JSON documents and, when asked for, the navigation counts, all over the same matching set.
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
  /** Answer, per referenced id, whether it exists (the full search's 400 for unknown ids). */
  checkReferences: boolean;
}

export interface SearchStatement {
  sql: string;
  params: unknown[];
  /** The body fields whose existence the statement answers, as columns ref_0, ref_1, … */
  references: string[];
}

/** The effective price of an item_prices row `p`: what the customer pays. */
const PRICE = 'coalesce(p.discount_price, p.normal_price)';

export function buildSearch(c: SearchCriteria): SearchStatement {
  const params: unknown[] = [c.tenantId];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['i.tenant_id = $1'];
  const from = ['items i'];
  const text = c.words !== undefined && c.words.length > 0;
  let ctes = '';
  if (c.words !== undefined && !text) where.push('false');
  if (text) {
    // The query is built once (folded words, prefix, typo alternatives from the word list).
    const args = `$1, ${bind(c.words)}::text[], true, ${bind(c.prefixAll)}, ${bind(c.typos)}`;
    ctes = `q as materialized (select item_search_query(${args}, '') as q, item_search_query(${args}, 'A') as qa),\n`;
    from.push('q');
    where.push('i.search_vector @@ q.q');
  }
  if (!c.includePassiveItems) where.push('i.item_status_id = 1');
  if (c.onlyMasterItems) where.push('(i.default_item_id is null or i.default_item_id = i.id)');
  if (c.categoryId !== undefined) {
    const id = bind(c.categoryId);
    where.push(
      c.includeSubcategories
        ? `i.category_id in (with recursive tree as (
             select id from categories where tenant_id = $1 and id = ${id}
             union all select k.id from categories k join tree on k.tenant_id = $1 and k.parent_id = tree.id)
           select id from tree)`
        : `i.category_id = ${id}`,
    );
  }
  if (c.brandId !== undefined) where.push(`i.brand_id = ${bind(c.brandId)}`);
  if (c.defaultItemId !== undefined) where.push(`i.default_item_id = ${bind(c.defaultItemId)}`);
  if (c.sku !== undefined) where.push(`i.sku = ${bind(c.sku)}`);
  if (c.uuid !== undefined) where.push(`i.uuid = ${bind(c.uuid)}`);
  if (c.itemIds !== undefined) where.push(`i.id = any(${bind(c.itemIds)}::int[])`);
  if (c.tagId !== undefined)
    where.push(
      `exists (select 1 from item_tags t where t.tenant_id = $1 and t.item_id = i.id and t.tag_id = ${bind(c.tagId)})`,
    );
  if (c.minPrice !== undefined || c.maxPrice !== undefined) {
    const conditions = ['p.tenant_id = $1', 'p.item_id = i.id'];
    if (c.priceTypeId !== undefined) conditions.push(`p.price_type_id = ${bind(c.priceTypeId)}`);
    if (c.minPrice !== undefined) conditions.push(`${PRICE} >= ${bind(c.minPrice)}`);
    if (c.maxPrice !== undefined) conditions.push(`${PRICE} <= ${bind(c.maxPrice)}`);
    where.push(`exists (select 1 from item_prices p where ${conditions.join(' and ')})`);
  }
  for (const a of c.attributes)
    where.push(
      `exists (select 1 from item_attributes a join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
                where a.tenant_id = $1 and a.item_id = i.id and a.type_id = ${bind(a.typeId)} and lower(v.value) = lower(${bind(a.value)}))`,
    );

  const order = text || c.order !== 'relevance' ? c.order : 'id';
  const key = orderKey(order, c, bind);
  const direction = c.descending ? 'desc' : 'asc';
  const columns = ['i.id', 'i.category_id', 'i.brand_id'];
  if (key) columns.push(`${key} as k`);
  if (order === 'relevance') columns.push('(i.search_vector @@ q.qa) as in_title');
  if (c.staticNavigation)
    columns.push('i.facet_tag_ids', 'i.facet_price_type_ids', 'i.facet_prices');
  if (c.dynamicNavigation) columns.push('i.facet_value_ids');
  const matches = `select ${columns.join(', ')} from ${from.join(', ')} where ${where.join(' and ')}`;

  const skip = bind(c.skip);
  const take = bind(c.take);
  let page: string;
  let pageOrder: string;
  if (order === 'relevance') {
    // Few matches: ts_rank over them all. Many: by tier, without reading every vector again.
    // One branch runs, the other is cut off by its one-time filter.
    page = `(select m.id, ts_rank(i.search_vector, q.q) as r, m.in_title
               from matches m join items i on i.tenant_id = $1 and i.id = m.id, q
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
    `${c.staticNavigation ? STATIC_NAVIGATION : 'null'} as static_navigation`,
    `${c.dynamicNavigation ? DYNAMIC_NAVIGATION : 'null'} as dynamic_navigation`,
  ];
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
  // Navigations and relevance read the matches several times: they are gathered once. Otherwise
  // the count and the page are planned each on its own, so that a page in an indexed order
  // (a deep page by Title) walks that index instead of sorting every match.
  const gather = c.staticNavigation || c.dynamicNavigation || order === 'relevance';
  const sql = `with ${ctes}matches as ${gather ? '' : 'not '}materialized (${matches}),
counted as (select count(*)::int as n from matches),
page as (${page})
select ${selects.join(',\n       ')}`;
  return { sql, params, references };
}

function orderKey(
  order: SearchOrder,
  c: SearchCriteria,
  bind: (value: unknown) => string,
): string | undefined {
  switch (order) {
    case 'title':
      return 'lower(i.title)';
    case 'dateAdded':
      return 'i.date_added';
    case 'rating':
      return 'i.rating';
    case 'price':
      return `(select ${PRICE} from item_prices p where p.tenant_id = $1 and p.item_id = i.id and p.price_type_id = ${bind(c.priceTypeId)})`;
    default:
      return undefined;
  }
}

// The facet arrays are unnested in the select list (one ProjectSet over the matches): unnest in
// FROM is a function scan per match, a third of a broad query's time.
const STATIC_NAVIGATION = `(select json_build_object(
  'Categories', (select coalesce(json_agg(json_build_object('Id', k.id, 'Name', k.name, 'Count', x.n) order by x.n desc, k.id), '[]')
                   from (select category_id, count(*)::int as n from matches where category_id is not null group by category_id) x
                   join categories k on k.tenant_id = $1 and k.id = x.category_id),
  'Brands', (select coalesce(json_agg(json_build_object('Id', b.id, 'Name', b.name, 'Count', x.n) order by x.n desc, b.id), '[]')
               from (select brand_id, count(*)::int as n from matches where brand_id is not null group by brand_id) x
               join brands b on b.tenant_id = $1 and b.id = x.brand_id),
  'Tags', (select coalesce(json_agg(json_build_object('Id', g.id, 'Name', g.name, 'Count', x.n) order by x.n desc, g.id), '[]')
             from (select tag_id, count(*)::int as n from (select unnest(facet_tag_ids) as tag_id from matches) t
                    group by tag_id) x
             join tags g on g.tenant_id = $1 and g.id = x.tag_id),
  'PriceRanges', (select coalesce(json_agg(json_build_object('PriceTypeId', t.id, 'PriceTypeSymbol', t.symbol,
                          'Min', x.low, 'Max', x.high) order by t.id), '[]')
                    from (select price_type_id, min(price) as low, max(price) as high
                            from (select unnest(facet_price_type_ids) as price_type_id, unnest(facet_prices) as price
                                    from matches) p
                           group by price_type_id) x
                    join price_types t on t.tenant_id = $1 and t.id = x.price_type_id))::text)`;

const DYNAMIC_NAVIGATION = `(select coalesce(json_agg(json_build_object('TypeId', d.id, 'TypeName', d.description, 'Values', v.vals) order by d.id), '[]')::text
   from (select dv.type_id, json_agg(json_build_object('TypeValueId', x.value_id, 'Value', dv.value, 'Count', x.n)
                                     order by x.n desc, x.value_id) as vals
           from (select value_id, count(*)::int as n from (select unnest(facet_value_ids) as value_id from matches) a
                  group by value_id) x
           join dynamic_attribute_values dv on dv.tenant_id = $1 and dv.id = x.value_id
          group by dv.type_id) v
   join dynamic_attribute_types d on d.tenant_id = $1 and d.id = v.type_id)`;
