// Item search: the full search (POST /private/catalog/items) and the simple one (GET
// /private/catalog/items/search) on the same engine, one SQL statement per request (see
// search-sql.ts). Items are sent as their stored JSON documents, never re-serialised.
import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import { hasCitus } from '../../../db/citus/distribution.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import type { RelatedAssets } from '../catalog-assets.ts';
import { MAX_ID } from '../common-schemas.ts';
import type { ItemSearchQuery } from '../items/item-schemas.ts';
import {
  ORDERED_PROPERTIES,
  type DefaultImageJson,
  type ItemSearchBody,
} from './search-schemas.ts';
import { buildEstimate, sampleLevel } from './search-estimate-sql.ts';
import { TEXT_QUERY } from './search-filters-sql.ts';
import {
  buildSearch,
  type SearchCriteria,
  type SearchOrder,
  type SearchStatement,
} from './search-sql.ts';

interface SearchRow {
  total: number;
  /** A bounded text search with more matches than the limit: the estimate follows. */
  over?: boolean;
  /** Its matches carrying the sample mark '~s6' (search-estimate-sql.ts). */
  probe?: number;
  items: string;
  static_navigation: string | null;
  dynamic_navigation: string | null;
  /** [{ItemId, AssetId}] of the page's default images, when asked for. */
  default_images?: string | null;
  [reference: `ref_${number}`]: boolean;
}

/** The words of a query: letters and digits, in NFC (a combining accent stays in its word). */
export const queryWords = (query: string): string[] =>
  query.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/**
 * How many statement shapes are prepared. A shape is the statement's text, which varies only with
 * which criteria are present (their values are parameters), so a client's searches use a handful;
 * beyond this many (a client combining many attribute filters) they run unprepared rather than
 * fill every connection with plans.
 */
export const PREPARED_SHAPES = 64;

const ORDERS: Record<string, SearchOrder> = {
  relevance: 'relevance',
  title: 'title',
  price: 'price',
  dateadded: 'dateAdded',
  rating: 'rating',
};

export class SearchService {
  private readonly db: DatabaseHandle;
  private readonly assets: Pick<RelatedAssets, 'describe'>;
  /** A full text search counts exactly up to this many matches (SEARCH_EXACT_COUNT_LIMIT). */
  private readonly exactLimit: number;
  /** Prepared statement name by statement text. */
  private readonly shapes = new Map<string, string>();
  /** Whether the database is Citus (SearchCriteria.distributed), once known. */
  private distributed?: boolean;

  constructor(db: DatabaseHandle, assets: Pick<RelatedAssets, 'describe'>, exactLimit: number) {
    this.db = db;
    this.assets = assets;
    this.exactLimit = exactLimit;
  }

  /**
   * The full search: {"SearchResult": {…}} as JSON text. `baseUrl` (the tenant's) is where the
   * default images' bytes are served.
   */
  async search(tenantId: number, body: ItemSearchBody, baseUrl: string): Promise<string> {
    const criteria = await this.withTextQuery(criteriaOf(tenantId, body));
    let row = await this.run(buildSearch(criteria, this.exactLimit));
    let exact = true;
    if (row.over) {
      // More matches than the limit: a sample of them is counted instead (unprepared: its plan,
      // walking an index or sorting, depends on Skip + Take and on the query's words).
      const level = sampleLevel(this.exactLimit, row.probe ?? 0);
      const statement = buildEstimate(criteria, this.exactLimit, criteria.query ?? '', level);
      [row] = (await this.db.query<SearchRow>(statement.sql, statement.params)) as [SearchRow];
      exact = level === 0;
    }
    const images = criteria.defaultImages
      ? JSON.stringify(await this.defaultImages(tenantId, row.default_images ?? '[]', baseUrl))
      : 'null';
    return `{"SearchResult":{"Items":${row.items},"TotalItemCount":${row.total},"CountsAreExact":${exact},"StaticNavigation":${
      row.static_navigation ?? 'null'
    },"DynamicNavigation":${row.dynamic_navigation ?? 'null'},"DefaultImages":${images}}}`;
  }

  /** The page's default images with their URLs (the assets are the storage module's: one lookup). */
  private async defaultImages(
    tenantId: number,
    json: string,
    baseUrl: string,
  ): Promise<DefaultImageJson[]> {
    const relations = JSON.parse(json) as { ItemId: number; AssetId: number }[];
    if (relations.length === 0) return [];
    const assets = await this.assets.describe(
      tenantId,
      relations.map((r) => r.AssetId),
      baseUrl,
    );
    // An asset deleted (with force) between the two reads is left out, as in the relation lists.
    return relations.flatMap(({ ItemId, AssetId }) => {
      const asset = assets.get(AssetId);
      return asset
        ? [
            {
              ItemId,
              AssetId,
              AssetUrl: asset.url,
              MimeType: asset.mimeType,
              FileName: asset.fileName,
            },
          ]
        : [];
    });
  }

  /** The simple search: {"Results": […], "TotalCount": n} as JSON text, ordered by id. */
  async simple(tenantId: number, query: ItemSearchQuery): Promise<string> {
    let itemIds: number[] | undefined;
    if (query.itemIds !== undefined) {
      itemIds = query.itemIds.split(',').map((s) => Number(s.trim()));
      // An id beyond the ids' range would make the ::bigint[] cast fail (a 500 on bad input).
      if (itemIds.some((id) => id < 1 || id > MAX_ID))
        throw invalidField('itemIds', `each id must be 1..${MAX_ID}`);
    }
    const criteria = await this.withTextQuery({
      tenantId,
      // Every word a prefix, no typo alternatives: "words that the fields start with".
      words: query.q === undefined ? undefined : queryWords(query.q),
      prefixAll: true,
      typos: false,
      categoryId: query.categoryId,
      includeSubcategories: false,
      brandId: query.brandId,
      defaultItemId: query.defaultItemId,
      sku: query.sku,
      uuid: query.uuid,
      itemIds,
      attributes: [],
      onlyMasterItems: query.includeOnlyMasterItems ?? false,
      includePassiveItems: true,
      order: 'id',
      descending: false,
      skip: query.skip,
      take: query.take,
      staticNavigation: false,
      dynamicNavigation: false,
      checkReferences: false,
    });
    const row = await this.run(buildSearch(criteria));
    return `{"Results":${row.items},"TotalCount":${row.total}}`;
  }

  /**
   * The criteria with the text query of their words (search-sql.ts, SearchCriteria.query), and
   * whether the database is Citus.
   */
  private async withTextQuery(criteria: SearchCriteria): Promise<SearchCriteria> {
    this.distributed ??= await hasCitus(this.db);
    if (!criteria.words?.length) return { ...criteria, distributed: this.distributed };
    const [row] = await this.db.prepared<{ q: string | null }>('search-text-query', TEXT_QUERY, [
      criteria.tenantId,
      criteria.words,
      criteria.prefixAll,
      criteria.typos,
    ]);
    return { ...criteria, query: row!.q, distributed: this.distributed };
  }

  private async run(statement: SearchStatement): Promise<SearchRow> {
    const name = this.preparedName(statement.sql);
    const [row] = name
      ? await this.db.prepared<SearchRow>(name, statement.sql, statement.params)
      : await this.db.query<SearchRow>(statement.sql, statement.params);
    const unknown = statement.references.findIndex((_, index) => row![`ref_${index}`] === false);
    if (unknown >= 0)
      throw invalidField(statement.references[unknown]!, 'does not exist in this catalog');
    return row!;
  }

  /**
   * Prepared, PostgreSQL parses, analyses and plans a shape once per connection and then plans it
   * again only while its custom plans stay cheaper than the generic one (`plan_cache_mode`
   * auto); the text criterion cannot tell them apart, as the query is built inside the statement.
   */
  private preparedName(sql: string): string | undefined {
    let name = this.shapes.get(sql);
    if (name === undefined && this.shapes.size < PREPARED_SHAPES) {
      name = `search-${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
      this.shapes.set(sql, name);
    }
    return name;
  }
}

function criteriaOf(tenantId: number, body: ItemSearchBody): SearchCriteria {
  const words = body.Query == null ? undefined : queryWords(body.Query);
  const orderName = body.OrderedPropertyName?.toLowerCase();
  const order = orderName === undefined ? 'relevance' : ORDERS[orderName];
  if (order === undefined)
    throw invalidField(
      'OrderedPropertyName',
      `must be one of ${ORDERED_PROPERTIES.join(', ')} (got ${body.OrderedPropertyName})`,
    );
  const direction = body.OrderBy?.toLowerCase();
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc')
    throw invalidField('OrderBy', `must be Asc or Desc (got ${body.OrderBy})`);
  const priceTypeId = body.PriceTypeId ?? undefined;
  if (order === 'price' && priceTypeId === undefined)
    throw invalidField('PriceTypeId', 'is required to order by Price');
  const minPrice = body.MinPrice ?? undefined;
  const maxPrice = body.MaxPrice ?? undefined;
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    throw invalidField('MinPrice', 'must not be greater than MaxPrice');
  return {
    tenantId,
    // A Query of only punctuation has no word: it matches nothing (it is not an error).
    words: body.Query?.trim() === '' ? undefined : words,
    prefixAll: false,
    typos: true,
    categoryId: body.CategoryId ?? undefined,
    includeSubcategories: true,
    brandId: body.BrandId ?? undefined,
    tagId: body.TagId ?? undefined,
    priceTypeId,
    minPrice,
    maxPrice,
    attributes: (body.DynamicAttributes ?? []).map((a) => ({ typeId: a.TypeId, value: a.Value })),
    onlyMasterItems: body.IncludeOnlyMasterItems ?? false,
    includePassiveItems: body.IncludePassiveItems ?? false,
    order,
    // Relevance is always best first; the other orderings (and the id order when there is no
    // Query) ascend unless Desc.
    descending: direction === 'desc',
    skip: body.Skip ?? 0,
    take: body.Take ?? 20,
    staticNavigation: body.IncludeStaticNavigation ?? false,
    dynamicNavigation: body.IncludeDynamicNavigation ?? false,
    defaultImages: body.IncludeDefaultImages ?? false,
    checkReferences: true,
  };
}
