// The peer's side of the five search scenarios (bench/scenarios.ts SEARCH_SCENARIOS): each body
// our API takes, as the SphinxQL batch that answers the same question (the page, the exact total
// and the navigations' counts), and the answers of both as one comparable shape.
import type { Connection } from 'mysql2/promise';
import { queryWords } from '../src/modules/catalog/search/search-service.ts';
import { FIELD_WEIGHTS, SPHINX_INDEX } from './sphinx-server.ts';
import type { PeerCatalog } from './sphinx-load.ts';

/** The search body's fields the scenarios use (POST /private/catalog/items). */
export interface SearchBody {
  Query?: string;
  BrandId?: number;
  PriceTypeId?: number;
  MaxPrice?: number;
  Skip?: number;
  Take?: number;
  OrderedPropertyName?: string;
  IncludeStaticNavigation?: boolean;
  IncludeDynamicNavigation?: boolean;
}

/** An answer of either engine: page ids, total, and each navigation list as id → count. */
export interface ComparableAnswer {
  ids: number[];
  total: number;
  exact: boolean;
  navigations: Record<string, Map<number, number>>;
  /** Per price type id, [min, max] of the price paid. */
  priceRanges: Map<number, [number, number]>;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The words one edit away (insertion, deletion, substitution or transposition of neighbours). */
export function oneEditAway(word: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    for (const c of LETTERS) found.add(head + c + tail);
    if (i < word.length) {
      found.add(head + tail.slice(1));
      for (const c of LETTERS) found.add(head + c + tail.slice(1));
      if (i + 1 < word.length) found.add(head + tail[1] + tail[0] + tail.slice(2));
    }
  }
  found.delete(word);
  return [...found];
}

/**
 * The MATCH expression of a query as ours reads it: every word required, the last one also as a
 * prefix, and a word of 5+ letters also as the catalog's words one edit away (found in the
 * client's copy of the word list, as ours finds them in the tenant's).
 */
export function matchExpression(catalog: PeerCatalog, query: string): string {
  const words = queryWords(query).map((w) => w.toLowerCase());
  return words
    .map((w, n) => {
      const terms = [n === words.length - 1 ? `${w}*` : w];
      if (w.length >= 5 && /^[a-z]+$/.test(w))
        terms.push(...oneEditAway(w).filter((t) => catalog.words.has(t)));
      return `(${terms.join(' | ')})`;
    })
    .join(' ');
}

/** The price attribute of a price type id (sphinx-load.ts: price_1, price_2). */
const priceAttribute = (catalog: PeerCatalog, typeId: number) => {
  const at = catalog.priceTypeIds.indexOf(typeId);
  if (at < 0) throw new Error(`price type ${typeId} is not the tenant's`);
  return `price_${at + 1}`;
};

/**
 * The SphinxQL batch of a search body: the page (with its FACETs when navigations are asked
 * for), the price ranges, and SHOW META for the exact total. Order as ours: relevance (the best
 * field a word is in, then id) with a Query, else id; Title by the lower-cased title.
 */
export function sphinxStatements(catalog: PeerCatalog, body: SearchBody): string {
  const where = ['item_status_id = 1'];
  if (body.Query !== undefined)
    where.push(`match('${matchExpression(catalog, body.Query).replace(/'/g, "\\'")}')`);
  if (body.BrandId !== undefined) where.push(`brand_id = ${body.BrandId}`);
  if (body.MaxPrice !== undefined) {
    const price = priceAttribute(catalog, body.PriceTypeId!);
    where.push(`${price} >= 0`, `${price} <= ${body.MaxPrice}`);
  }
  const skip = body.Skip ?? 0;
  const take = body.Take ?? 20;
  const order =
    body.OrderedPropertyName?.toLowerCase() === 'title'
      ? 'title_key asc, id asc'
      : body.Query !== undefined
        ? 'w desc, id asc'
        : 'id asc';
  const options = [`max_matches=${Math.max(1000, skip + take)}`];
  if (body.Query !== undefined)
    options.push(`ranker=expr('top(user_weight)')`, `field_weights=(${FIELD_WEIGHTS})`);
  const conditions = where.join(' and ');
  let statements = `select id, weight() as w from ${SPHINX_INDEX} where ${conditions} order by ${order} limit ${skip}, ${take} option ${options.join(', ')}`;
  if (body.IncludeStaticNavigation)
    statements += ['category_id', 'brand_id', 'tag_ids']
      .map((f) => ` facet ${f} order by count(*) desc limit 1000`)
      .join('');
  if (body.IncludeDynamicNavigation)
    statements += ` facet value_ids order by count(*) desc limit 1000`;
  statements += '; show meta';
  if (body.IncludeStaticNavigation) {
    const ranges = catalog.priceTypeIds
      .map((_, k) => `min(price_${k + 1}) as low_${k + 1}, max(price_${k + 1}) as high_${k + 1}`)
      .join(', ');
    statements += `; select ${ranges} from ${SPHINX_INDEX} where ${conditions}`;
  }
  return statements;
}

type ResultSet = Record<string, unknown>[];

/** The answer of a batch of sphinxStatements. */
export function sphinxAnswer(
  catalog: PeerCatalog,
  body: SearchBody,
  results: ResultSet[],
): ComparableAnswer {
  const [page, ...rest] = results;
  const facets = ['Categories', 'Brands', 'Tags'].filter(() => body.IncludeStaticNavigation);
  if (body.IncludeDynamicNavigation) facets.push('Values');
  const navigations: Record<string, Map<number, number>> = {};
  facets.forEach((name, k) => {
    const rows = rest[k]!;
    navigations[name] = new Map(
      rows.map((r) => {
        const values = Object.values(r);
        return [Number(values[0]), Number(values[1])];
      }),
    );
  });
  const meta = rest[facets.length]!;
  const total = Number(meta.find((r) => r.Variable_name === 'total_found')?.Value);
  const priceRanges = new Map<number, [number, number]>();
  const ranges = rest[facets.length + 1]?.[0];
  if (ranges && total > 0)
    catalog.priceTypeIds.forEach((id, k) =>
      priceRanges.set(id, [Number(ranges[`low_${k + 1}`]), Number(ranges[`high_${k + 1}`])]),
    );
  return { ids: page!.map((r) => Number(r.id)), total, exact: true, navigations, priceRanges };
}

/** Runs a body on the peer: its statements (with the typo lookup) and the answer. */
export async function sphinxSearch(
  sphinx: Connection,
  catalog: PeerCatalog,
  body: SearchBody,
): Promise<ComparableAnswer> {
  const [results] = await sphinx.query(sphinxStatements(catalog, body));
  return sphinxAnswer(catalog, body, results as unknown as ResultSet[]);
}

interface OurNavigationEntry {
  Id?: number;
  TypeValueId?: number;
  Count: number;
}

/** Our API's answer (the SearchResult of POST /private/catalog/items) in the same shape. */
export function ourAnswer(json: string): ComparableAnswer {
  const result = (JSON.parse(json) as { SearchResult: Record<string, unknown> }).SearchResult;
  const navigations: Record<string, Map<number, number>> = {};
  const counts = (entries: OurNavigationEntry[]) =>
    new Map(entries.map((e) => [e.Id ?? e.TypeValueId!, e.Count]));
  const statics = result.StaticNavigation as Record<string, unknown> | null;
  const priceRanges = new Map<number, [number, number]>();
  if (statics) {
    navigations.Categories = counts(statics.Categories as OurNavigationEntry[]);
    navigations.Brands = counts(statics.Brands as OurNavigationEntry[]);
    navigations.Tags = counts(statics.Tags as OurNavigationEntry[]);
    for (const r of statics.PriceRanges as { PriceTypeId: number; Min: number; Max: number }[])
      priceRanges.set(r.PriceTypeId, [r.Min, r.Max]);
  }
  const dynamics = result.DynamicNavigation as { Values: OurNavigationEntry[] }[] | null;
  if (dynamics) navigations.Values = counts(dynamics.flatMap((d) => d.Values));
  return {
    ids: (result.Items as { Id: number }[]).map((i) => i.Id),
    total: result.TotalItemCount as number,
    exact: result.CountsAreExact as boolean,
    navigations,
    priceRanges,
  };
}
