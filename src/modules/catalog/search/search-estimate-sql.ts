// The statement that answers a full-search text query with more matches than the exact limit
// (docs/design.md "Search", "Bounded cost above the exact limit"), after the search statement
// (search-sql.ts) has found so and handed over its text query and its probe: how many matches
// carry the sample mark '~s6' (migration 0260: an item carries '~sK' with probability 2^-K).
//   * sample: the matches carrying '~sL', L chosen from the probe so that the sample holds
//     between SAMPLE_MATCHES and twice as many (every match when L = 0, then exact), found by the
//     GIN index with the query itself. The total and every navigation count are the sample's
//     × 2^L.
//   * page, by relevance: by tier (items matching in Title or Name first), each tier by id. A
//     tier the sample shows large (at least the limit, and twice Skip + Take) is read by walking
//     the primary key in id order until the page is full (its items are at least limit / N of
//     the rows, so a page of k items costs about k × N / limit rows); a small one comes from the
//     GIN index (the Title and Name vector is in it) and is sorted; the second tier is read only
//     when the first does not fill the page. The walks call ts_match_vq(), the function behind
//     @@, which the planner cannot turn into an index scan of every match. Other orders sort
//     every match.
import { DEFAULT_IMAGES, pageDocuments } from './search-answer-sql.ts';
import { orderKey, searchFilters, statementParams } from './search-filters-sql.ts';
import { facetColumns, facetsCte, navigationSelects } from './search-navigation-sql.ts';
import type { SearchCriteria, SearchStatement } from './search-sql.ts';

/** The sample level counted first: 1/64 of the matches. */
export const PROBE_LEVEL = 6;
/** The deepest sample mark (migration 0260). */
const MAX_LEVEL = 10;
/** The fewest matches an estimate is made from (half the limit when the limit is lower). */
export const SAMPLE_MATCHES = 2500;

/**
 * How many matches in the 1/64 sample make a query estimated without counting to the limit: its
 * share of the limit and six standard deviations more (132 of a limit of 5,000). A query with at
 * most the limit of matches has a binomial count there, of mean at most the share: at exactly
 * the limit, it reaches the bound once in 76 million (1.3e-8; rarer with fewer matches), and is
 * then only flagged as estimated.
 * Twice the share, the bound until now, sent queries of up to twice the limit to counting first.
 */
export function directEstimate(limit: number): number {
  const share = limit / 2 ** PROBE_LEVEL;
  return Math.ceil(share + 6 * Math.sqrt(share));
}

/** The sample level whose sample holds between SAMPLE_MATCHES and twice as many matches. */
export function sampleLevel(limit: number, probe: number): number {
  const sample = Math.min(SAMPLE_MATCHES, Math.floor(limit / 2));
  if (probe === 0) return 0;
  return Math.min(
    MAX_LEVEL,
    Math.max(0, Math.floor(Math.log2((probe * 2 ** PROBE_LEVEL) / sample))),
  );
}

/**
 * @param query the text query the search statement built (tsquery text)
 * @param level the sample level (sampleLevel)
 */
export function buildEstimate(
  c: SearchCriteria,
  limit: number,
  query: string,
  level: number,
): SearchStatement {
  const { params, bind } = statementParams(c.tenantId);
  const q = `${bind(query)}::tsquery`;
  const filters = searchFilters(c, bind);
  const base = filters.conditions.join(' and ');
  const textBase = filters.textScan.join(' and ');
  const ctes: string[] = [];
  const sampled = level === 0 ? q : `(${q} && item_search_mark($1, ${level}))`;
  ctes.push(
    `sample as materialized (select s.item_id as id, s.category_id, s.brand_id, (s.title_vector @@ ${q}) as in_title${facetColumns(
      c,
    )
      .map((column) => `, ${column}`)
      .join('')}
       from item_search_rows s where ${textBase} and s.search_vector @@ ${sampled})`,
    `tiers as (select count(*) filter (where in_title) * ${2 ** level} as title,
                      count(*) filter (where not in_title) * ${2 ** level} as other,
                      count(*) * ${2 ** level} as total from sample)`,
  );
  const facets = facetsCte(c, 'sample', `(count(*) * ${2 ** level})::int`);
  if (facets) ctes.push(facets);

  const skip = bind(c.skip);
  const take = bind(c.take);
  let pageOrder: string;
  if (c.order === 'relevance') {
    const reach = bind(c.skip + c.take);
    // Both tiers keep the tenant condition indexable: a small tier's branch written with the
    // tenant as a filter was planned parallel, and starting its workers cost 40–65 ms at 1M
    // items even when its one-time filter left it nothing to read.
    const walk = (condition: string) =>
      `(select s.item_id as id from item_search_rows s where ${base} and ${condition} order by s.item_id limit ${reach})`;
    const large = (tier: string) =>
      `(select ${tier} from tiers) >= greatest(${limit}, 2 * ${reach})`;
    const inText = `ts_match_vq(s.search_vector, ${q})`;
    const inTitle = `ts_match_vq(s.title_vector, ${q})`;
    const firstShort = `(select count(*) from first_tier) < ${reach}`;
    ctes.push(
      `first_tier as materialized (
         ${walk(`${inText} and ${inTitle} and ${large('title')}`)}
         union all
         ${walk(`s.search_vector @@ ${q} and s.title_vector @@ ${q} and not ${large('title')}`)})`,
      `second_tier as materialized (
         ${walk(`${inText} and not ${inTitle} and ${large('other')} and ${firstShort}`)}
         union all
         ${walk(`s.search_vector @@ ${q} and not (s.title_vector @@ ${q}) and not ${large('other')} and ${firstShort}`)})`,
      `page as (select id, tier from (select id, 1 as tier from first_tier union all select id, 2 from second_tier) t
                 order by tier, id offset ${skip} limit ${take})`,
    );
    pageOrder = 'p.tier, p.id';
  } else {
    const key = orderKey(c, bind) ?? 's.item_id';
    const direction = c.descending ? 'desc' : 'asc';
    ctes.push(
      `page as (select s.item_id as id, ${key} as k from item_search_rows s where ${base} and s.search_vector @@ ${q}
                 order by k ${direction} nulls last, s.item_id offset ${skip} limit ${take})`,
    );
    pageOrder = `p.k ${direction} nulls last, p.id`;
  }
  const selects = [
    // An estimate never goes below the limit: there are more matches than that.
    `greatest(${level === 0 ? 0 : limit + 1}, (select total from tiers))::int as total`,
    pageDocuments(pageOrder),
    ...navigationSelects(c, filters.categoryParam),
  ];
  if (c.defaultImages) selects.push(DEFAULT_IMAGES);
  const sql = `with ${ctes.join(',\n')}
select ${selects.join(',\n       ')}`;
  return { sql, params, references: [] };
}
