// The statement of a full-search text query: exact up to the exact limit of matches, bounded
// above it (docs/design.md "Search", "Bounded cost above the exact limit"). Its parts, each cut
// off by one-time filters when not needed:
//   * probe: the matches carrying the sample mark '~s6' (migration 0260: an item has '~sK' with
//     probability 2^-K), found by the GIN index with the query itself: 1/64 of the matches.
//   * matches: unless the probe already holds twice its share of the limit, the matches, at
//     most limit + 1 of them. At most the limit: everything is exact, as for any search.
//   * sample: above the limit, the matches carrying '~sL', L chosen from the probe's size so that
//     the sample holds between SAMPLE and 2 × SAMPLE matches (the probe's own rows when L ≥ 6,
//     every match when L = 0). The total and every navigation count are the sample's × 2^L.
//   * page: below the limit, ts_rank over the matches (the tier order above RANK_LIMIT). Above
//     it, by tier (items matching in Title or Name first), each tier by id: a tier the sample
//     shows large (at least the limit, and twice Skip + Take) is read by walking the primary key
//     in id order until the page is full (its items are at least limit / N of the rows, so a page
//     of k items costs about k × N / limit rows); a small one comes from the GIN index (the Title
//     and Name vector is in it) and is sorted; the second tier is read only when the first does
//     not fill the page. Other orders sort every match. The walks call ts_match_vq(), the
//     function behind @@, which the planner cannot turn into an index scan of every match.
import { DEFAULT_IMAGES, pageDocuments, referenceChecks } from './search-answer-sql.ts';
import { orderKey, searchFilters, statementParams, textQuery } from './search-filters-sql.ts';
import { facetColumns, facetsCte, navigationSelects } from './search-navigation-sql.ts';
import type { SearchCriteria, SearchStatement } from './search-sql.ts';

/** Above this many matches the relevance order is by tier (a match in Title or Name first, then
 *  by id) instead of ts_rank over every match: ranking is what makes broad queries slow. */
export const RANK_LIMIT = 5000;
/** The sample level read first: 1/64 of the matches. */
const PROBE_LEVEL = 6;
/** The deepest sample mark (migration 0260). */
const MAX_LEVEL = 10;
/** The fewest matches an estimate is made from (fewer with a limit under twice this many). */
export const SAMPLE_MATCHES = 2500;

/** Columns: total, level (of the sample; 0 when every match was counted), items, navigations. */
export function buildBoundedSearch(c: SearchCriteria, limit: number): SearchStatement {
  const { params, bind } = statementParams(c.tenantId);
  const ctes = [textQuery(c, bind)];
  const filters = searchFilters(c, bind);
  const base = filters.conditions.join(' and ');
  const query = '(select q from q)';
  const matchesQuery = `s.search_vector @@ ${query}`;
  const sampleSize = Math.min(SAMPLE_MATCHES, Math.floor(limit / 2));
  const rankLimit = Math.min(RANK_LIMIT, limit);
  const order = c.order;
  const key = order === 'relevance' ? undefined : (orderKey(c, bind) ?? 's.item_id');
  const direction = c.descending ? 'desc' : 'asc';

  const sampled = [
    's.item_id as id',
    's.category_id',
    's.brand_id',
    `(s.title_vector @@ ${query}) as in_title`,
    ...facetColumns(c),
  ];
  const names = (columns: string[]) =>
    columns.map((column) => column.replace(/^.* as /, '').replace(/^s\./, ''));
  const scan = (columns: string[], condition: string) =>
    `select ${columns.join(', ')} from item_search_rows s where ${base} and ${condition}`;
  const over = '(select over from decided)';
  const level = '(select level from decided)';
  const probeCount = '(select count(*) from probe)';
  // Twice its share of the limit in the probe: estimated without counting to the limit. (A query
  // with at most the limit of matches would need far more of them in the 1/64 sample than a
  // hash of the ids gives: its expected share is at most half of this.)
  const direct = `${probeCount} >= ${Math.ceil((2 * limit) / 2 ** PROBE_LEVEL)}`;
  const matchColumns = [...sampled, 's.ctid as row_tid', ...(key ? [`${key} as k`] : [])];
  ctes.push(
    `probe as materialized (${scan(
      [...sampled, 'item_search_sample_level(s.item_id) as level'],
      `s.search_vector @@ (${query} && '~s${PROBE_LEVEL}'::tsquery)`,
    )})`,
    `matches as materialized (${scan(matchColumns, `${matchesQuery} and not (${direct})`)} limit ${limit + 1})`,
    `counted as (select count(*)::int as n from matches)`,
    `decided as (select over, case when not over or n = 0 then 0
                       else least(${MAX_LEVEL}, greatest(0, floor(ln(n * ${2 ** PROBE_LEVEL}.0 / ${sampleSize}) / ln(2))))::int end as level
                  from (select ${direct} or (select n from counted) > ${limit} as over, ${probeCount} as n) d)`,
    `sample as materialized (
       select ${names(sampled).join(', ')} from probe where level >= ${level} and ${level} >= ${PROBE_LEVEL}
       union all
       ${scan(sampled, `s.search_vector @@ (${query} && ('~s' || ${level})::tsquery) and ${level} between 1 and ${PROBE_LEVEL - 1}`)}
       union all
       ${scan(sampled, `${matchesQuery} and ${over} and ${level} = 0`)})`,
    `scale as (select case when over then 2 ^ level else 1 end::float8 as f from decided)`,
    `tiers as (select count(*) filter (where in_title) * f as title, count(*) filter (where not in_title) * f as other, count(*) * f as total
                 from sample, scale group by f)`,
  );
  const counts = `(select ${names(sampled).join(', ')} from matches where not ${over}
                    union all select ${names(sampled).join(', ')} from sample) c`;
  const facets = facetsCte(c, counts, 'round(count(*) * (select f from scale))::int');
  if (facets) ctes.push(facets);

  const skip = bind(c.skip);
  const take = bind(c.take);
  let pageOrder: string;
  if (order === 'relevance') {
    const reach = bind(c.skip + c.take);
    const walk = (condition: string) =>
      `(select s.item_id as id from item_search_rows s where ${base} and ${over} and ${condition} order by s.item_id limit ${reach})`;
    const large = (tier: string) =>
      `coalesce((select ${tier} from tiers), 0) >= greatest(${limit}, 2 * ${reach})`;
    const inText = `ts_match_vq(s.search_vector, ${query})`;
    const inTitle = `ts_match_vq(s.title_vector, ${query})`;
    const firstShort = `(select count(*) from first_tier) < ${reach}`;
    ctes.push(
      `first_tier as materialized (
         ${walk(`${inText} and ${inTitle} and ${large('title')}`)}
         union all
         ${walk(`${matchesQuery} and s.title_vector @@ ${query} and not ${large('title')}`)})`,
      `second_tier as materialized (
         ${walk(`${inText} and not ${inTitle} and ${large('other')} and ${firstShort}`)}
         union all
         ${walk(`${matchesQuery} and not (s.title_vector @@ ${query}) and not ${large('other')} and ${firstShort}`)})`,
      `page as (
         (select m.id, 1 as tier, ts_rank(s.search_vector, q.q) as r
            from matches m join item_search_rows s on s.ctid = m.row_tid, q
           where not ${over} and (select n from counted) <= ${rankLimit}
           order by r desc, m.id offset ${skip} limit ${take})
         union all
         (select m.id, case when m.in_title then 1 else 2 end, null from matches m
           where not ${over} and (select n from counted) > ${rankLimit}
           order by m.in_title desc, m.id offset ${skip} limit ${take})
         union all
         (select id, tier, null from (select id, 1 as tier from first_tier union all select id, 2 from second_tier) t
           order by tier, id offset ${skip} limit ${take}))`,
    );
    pageOrder = 'p.r desc nulls last, p.tier, p.id';
  } else {
    ctes.push(
      `page as (
         (select id, k from matches where not ${over} order by k ${direction} nulls last, id offset ${skip} limit ${take})
         union all
         (select s.item_id, ${key} from item_search_rows s where ${base} and ${matchesQuery} and ${over}
           order by 2 ${direction} nulls last, s.item_id offset ${skip} limit ${take}))`,
    );
    pageOrder = `p.k ${direction} nulls last, p.id`;
  }
  const selects = [
    `case when ${over} then greatest(${limit + 1}, round(coalesce((select total from tiers), 0)))::int
          else (select n from counted) end as total`,
    `${level} as level`,
    pageDocuments(pageOrder),
    ...navigationSelects(c, filters.categoryParam),
  ];
  if (c.defaultImages) selects.push(DEFAULT_IMAGES);
  const references = c.checkReferences ? referenceChecks(c, bind, selects) : [];
  const sql = `with ${ctes.join(',\n')}
select ${selects.join(',\n       ')}`;
  return { sql, params, references };
}
