// Builds the one SQL statement of an item search: the matching items (from the narrow search
// rows, tenant first, text through the GIN index on their tenant-scoped vectors), their count,
// one ordered page of their stored JSON documents and, when asked for, the navigation counts,
// all over the same matching set. A text search with an exact limit counts at most that many
// matches: over it, the statement answers only so, and the service sends the estimating
// statement (search-estimate-sql.ts), which counts a sample.
// Every value is a bind parameter; only the shape of the statement varies with the criteria.
import { DEFAULT_IMAGES, pageDocuments, referenceChecks } from './search-answer-sql.ts';
import { directEstimate, PROBE_LEVEL } from './search-estimate-sql.ts';
import { orderKey, searchFilters, statementParams, textQuery } from './search-filters-sql.ts';
import { facetColumns, facetsCte, navigationSelects } from './search-navigation-sql.ts';

/** Above this many matches the relevance order is by tier (a match in Title or Name first, then
 *  by id) instead of ts_rank over every match: ranking is what makes broad queries slow. */
export const RANK_LIMIT = 5000;

export type SearchOrder = 'relevance' | 'title' | 'price' | 'dateAdded' | 'rating' | 'id';

export interface SearchCriteria {
  tenantId: number;
  /** Query words (already split); undefined for no text criterion, [] to match nothing. */
  words?: string[];
  /**
   * The words' text query (tsquery text: TEXT_QUERY), built by a statement of its own before the
   * search, or null when no word gives a term: on Citus a statement that runs on a shard cannot
   * run the tenant's word lookups (queries of their own) inside it.
   */
  query?: string | null;
  /** Every word a prefix (the simple search) instead of only the last one. */
  prefixAll: boolean;
  /** A word of 5+ letters also matches the tenant's words one edit away. */
  typos: boolean;
  /**
   * The database is Citus: every table's tenant condition stays `tenant_id = $1`, by which it
   * sends the statement to one shard (search-filters-sql.ts TENANT_FILTER).
   */
  distributed?: boolean;
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
 * @param exactLimit a text search counts every match up to this many. Above it, the statement
 *   answers `over` (and no page nor navigation), with the count of its 1/64 sample (`probe`),
 *   from which the service chooses the estimating statement's sample level
 *   (search-estimate-sql.ts `sampleLevel`).
 */
export function buildSearch(c: SearchCriteria, exactLimit = Infinity): SearchStatement {
  const { params, bind } = statementParams(c.tenantId);
  const from = ['item_search_rows s'];
  const text = c.words !== undefined && c.words.length > 0;
  const bounded = text && Number.isFinite(exactLimit);
  const ctes: string[] = [];
  const textConditions: string[] = [];
  if (c.words !== undefined && !text) textConditions.push('false');
  if (text) {
    ctes.push(textQuery(c, bind));
    from.push('q');
    textConditions.push('s.search_vector @@ q.q');
  }
  const filters = searchFilters(c, bind);
  const where = [...(text ? filters.textScan : filters.conditions), ...textConditions];
  // Without text or other filters the total is read from item_search_counts.
  const counter = c.words === undefined && filters.onlyStatusAndVariant;
  if (bounded) {
    // The 1/64 sample of the matches, counted from the GIN index (the sample marks of migration
    // 0260) and their rows alone: broad enough, and the matches are not gathered at all.
    ctes.push(
      `probe as (select count(*)::int as n from item_search_rows s
                  where ${filters.textScan.join(' and ')} and s.search_vector @@ ((select q from q) && item_search_mark($1, ${PROBE_LEVEL})))`,
    );
    where.push(`(select n from probe) < ${directEstimate(exactLimit)}`);
  }

  const order = text || c.order !== 'relevance' ? c.order : 'id';
  const key = orderKey(c, bind, order);
  const direction = c.descending ? 'desc' : 'asc';
  const columns = ['s.item_id as id', 's.category_id', 's.brand_id'];
  if (key) columns.push(`${key} as k`);
  // Ranked as they are read when every match a statement gathers is ranked (the exact limit at
  // most the rank limit): looking each row up again by its address cost 3 µs a row, its ts_rank
  // 0.5 µs. With a higher exact limit, where the address, to rank a few matches without reading
  // every vector twice. And the tier, for many matches.
  const rankAsRead = bounded && exactLimit <= RANK_LIMIT;
  if (order === 'relevance')
    columns.push(
      '(s.title_vector @@ q.q) as in_title',
      rankAsRead ? 'ts_rank(s.search_vector, q.q) as r' : 's.ctid as row_tid',
    );
  columns.push(...facetColumns(c));
  const matches = `select ${columns.join(', ')} from ${from.join(', ')} where ${where.join(' and ')}${
    bounded ? ` limit ${exactLimit + 1}` : ''
  }`;
  // Over the limit nothing but the decision is answered: the estimate follows.
  const within = bounded ? `(select n from counted) <= ${exactLimit}` : undefined;
  const whereWithin = within ? ` where ${within}` : '';
  const andWithin = within ? ` and ${within}` : '';

  const skip = bind(c.skip);
  const take = bind(c.take);
  let page: string;
  let pageOrder: string;
  if (order === 'relevance') {
    // Few matches: ts_rank over them all. Many: by tier, without reading every vector again.
    // One branch runs, the other is cut off by its one-time filter.
    const ranked = rankAsRead
      ? 'select m.id, m.r, m.in_title from matches m'
      : `select m.id, ts_rank(s.search_vector, q.q) as r, m.in_title
               from matches m join item_search_rows s on s.tenant_id = $1 and s.ctid = m.row_tid, q`;
    page = `(${ranked}
              where (select n from counted) <= ${RANK_LIMIT}${andWithin}
              order by r desc, m.id offset ${skip} limit ${take})
            union all
            (select m.id, null, m.in_title from matches m
              where (select n from counted) > ${RANK_LIMIT}${andWithin}
              order by m.in_title desc, m.id offset ${skip} limit ${take})`;
    pageOrder = 'p.r desc nulls last, p.in_title desc, p.id';
  } else if (key) {
    page = `select id, k from matches${whereWithin} order by k ${direction} nulls last, id offset ${skip} limit ${take}`;
    pageOrder = `p.k ${direction} nulls last, p.id`;
  } else {
    page = `select id from matches${whereWithin} order by id ${direction} offset ${skip} limit ${take}`;
    pageOrder = `p.id ${direction}`;
  }

  const selects = [
    '(select n from counted) as total',
    pageDocuments(pageOrder),
    ...navigationSelects(c, filters.categoryParam),
  ];
  if (bounded)
    selects.push(
      `(select n from probe) >= ${directEstimate(exactLimit)} or (select n from counted) > ${exactLimit} as over`,
      `(select n from probe) as probe`,
    );
  if (c.defaultImages) selects.push(DEFAULT_IMAGES);
  const references = c.checkReferences ? referenceChecks(c, bind, selects) : [];
  // The navigations' counts: one pass over the matches, one grouping set per list.
  const facets = facetsCte(c, `matches${whereWithin}`);
  // Each of the grouping sets puts every match in exactly one group: its counts add up to the
  // total (no second pass over the matches). A bounded search counts its matches first.
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
