// The statement of a text search with more matches than the exact limit (docs/design.md
// "Search", "Estimated counts above the exact limit"). It never reads every match:
//   * The total and the navigation counts come from a sample of the matches: those carrying the
//     sample mark '~sL' (migration 0260: an item has it with probability 2^-L), found by the GIN
//     index with the query itself, each count multiplied by 2^L. L is chosen so that the sample
//     holds between half the limit and the limit: first the 1/64 sample is read ('~s6'), which
//     tells roughly how many matches there are; a smaller level reads a larger sample. Level 0
//     is every match: the counts are then exact.
//   * The relevance page is the two tiers of a broad query, items matching in Title or Name
//     first, each by id. A tier the sample shows to be large (at least the limit, and twice Skip +
//     Take) is read by walking the primary key in id order until the page is full (a tier of at
//     least `limit` matches among the tenant's N items fills a page of k items after about
//     k × N / limit rows); a small one comes from the GIN index (the Title and Name vector is in
//     it) and is sorted. The second tier is only read when the first does not fill the page.
//   * Other orders sort every match (as below the limit); only the counting is bounded.
// The walks call ts_match_vq(), the function behind @@, so that the planner cannot turn them
// into an index scan of every match followed by a sort.
import { orderKey, searchFilters, statementParams, textQuery } from './search-filters-sql.ts';
import { facetColumns, facetsCte, navigationSelects } from './search-navigation-sql.ts';
import {
  DEFAULT_IMAGES,
  pageDocuments,
  type SearchCriteria,
  type SearchStatement,
} from './search-sql.ts';

/** The sample level read first: 1/64 of the matches. */
const PROBE_LEVEL = 6;
/** The deepest sample mark (migration 0260). */
const MAX_LEVEL = 10;

/** Columns: total (estimated), level (of the sample; 0 = every match, exact), items, navigations. */
export function buildEstimate(c: SearchCriteria, exactLimit: number): SearchStatement {
  const { params, bind } = statementParams(c.tenantId);
  const ctes = [textQuery(c, bind)];
  const filters = searchFilters(c, bind);
  const base = filters.conditions.join(' and ');
  const query = '(select q from q)';
  const columns = [
    's.item_id as id',
    's.category_id',
    's.brand_id',
    `(s.title_vector @@ ${query}) as in_title`,
    ...facetColumns(c),
  ];
  const names = columns.map((column) => column.replace(/^.* as /, '').replace(/^s\./, ''));
  const scan = (condition: string) =>
    `select ${columns.join(', ')} from item_search_rows s where ${base} and ${condition}`;
  const level = '(select level from chosen)';
  // The level whose sample holds between half the limit and the limit, from the 1/64 sample.
  ctes.push(
    `probe as materialized (select ${columns.join(', ')}, item_search_sample_level(s.item_id) as level
       from item_search_rows s where ${base} and s.search_vector @@ (${query} && '~s${PROBE_LEVEL}'::tsquery))`,
    `chosen as (select case when n = 0 then 0
                            else least(${MAX_LEVEL}, greatest(0, floor(ln(n * ${2 ** PROBE_LEVEL}.0 / ${exactLimit / 2}) / ln(2))))::int end as level
                  from (select count(*) as n from probe) p)`,
    `sample as materialized (
       select ${names.join(', ')} from probe where level >= ${level} and ${level} >= ${PROBE_LEVEL}
       union all
       ${scan(`s.search_vector @@ (${query} && ('~s' || ${level})::tsquery) and ${level} between 1 and ${PROBE_LEVEL - 1}`)}
       union all
       ${scan(`s.search_vector @@ ${query} and ${level} = 0`)})`,
    `scale as (select (2 ^ level)::float8 as f from chosen)`,
    `tiers as (select count(*) filter (where in_title) * f as title, count(*) filter (where not in_title) * f as other, count(*) * f as total
                 from sample, scale group by f)`,
  );
  const facets = facetsCte(c, 'sample', 'round(count(*) * (select f from scale))::int');
  if (facets) ctes.push(facets);

  const skip = bind(c.skip);
  const take = bind(c.take);
  let pageOrder: string;
  if (c.order === 'relevance') {
    const reach = bind(c.skip + c.take);
    const walk = (condition: string) =>
      `(select s.item_id as id from item_search_rows s where ${base} and ${condition} order by s.item_id limit ${reach})`;
    // A tier is walked when the sample shows it large: at least the limit (so the walk finds its
    // items among the rows at a bounded rate) and twice what the page needs of it (a page beyond
    // the tier's end would walk every row to find that it has no more).
    const large = (tier: string) =>
      `coalesce((select ${tier} from tiers), 0) >= greatest(${exactLimit}, 2 * ${reach})`;
    const inText = `ts_match_vq(s.search_vector, ${query})`;
    const inTitle = `ts_match_vq(s.title_vector, ${query})`;
    ctes.push(
      `first_tier as materialized (
         ${walk(`${inText} and ${inTitle} and ${large('title')}`)}
         union all
         ${walk(`s.search_vector @@ ${query} and s.title_vector @@ ${query} and not ${large('title')}`)})`,
      `second_tier as materialized (
         ${walk(`${inText} and not ${inTitle} and ${large('other')} and (select count(*) from first_tier) < ${reach}`)}
         union all
         ${walk(`s.search_vector @@ ${query} and not (s.title_vector @@ ${query}) and not ${large('other')} and (select count(*) from first_tier) < ${reach}`)})`,
      `page as (select id, tier from (select id, 1 as tier from first_tier union all select id, 2 from second_tier) t
                 order by tier, id offset ${skip} limit ${take})`,
    );
    pageOrder = 'p.tier, p.id';
  } else {
    const key = orderKey(c, bind) ?? 's.item_id';
    const direction = c.descending ? 'desc' : 'asc';
    ctes.push(
      `page as (select s.item_id as id, ${key} as k from item_search_rows s where ${base} and s.search_vector @@ ${query}
                 order by k ${direction} nulls last, s.item_id offset ${skip} limit ${take})`,
    );
    pageOrder = `p.k ${direction} nulls last, p.id`;
  }
  const selects = [
    `greatest(${exactLimit + 1}, round(coalesce((select total from tiers), 0)))::int as total`,
    `${level} as level`,
    pageDocuments(pageOrder),
    ...navigationSelects(c, filters.categoryParam),
  ];
  if (c.defaultImages) selects.push(DEFAULT_IMAGES);
  const sql = `with ${ctes.join(',\n')}
select ${selects.join(',\n       ')}`;
  return { sql, params, references: [] };
}
