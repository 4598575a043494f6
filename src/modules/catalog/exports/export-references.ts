// The records of an export that are not items, written before them: the price types, dynamic
// attribute types, tags, brands and categories (parents before children) with what items do not
// carry: descriptions, category metadata, asset relations, and those no item uses. A whole-catalog
// export writes all of them; a filtered one those its items use (with the categories' ancestors).
// A record stays bounded: a category's metadata and a brand's or category's assets are spread over
// several records of it when they would make one longer than RECORD_BYTES.
import type { RawSql } from '../../../db/connection/database.ts';
import type { AssetFacts, BulkAssets } from '../catalog-assets.ts';
import type { ReferenceRecord } from '../imports/import-reference-schemas.ts';
import type { ImportAsset } from '../imports/import-schemas.ts';

const PAGE = 1000;
/** A record's target length: a quarter of the import's default limit, half of it as CSV. */
export const RECORD_BYTES = 256 * 1024;
/** Entries of one array in a record, as the import's schemas allow. */
const MAX_ENTRIES = 1000;

/** Which items an export writes: all the tenant's, or those `where` selects (over `items i`). */
export interface ExportScope {
  tenantId: number;
  all: boolean;
  where: string;
  params: unknown[];
}

interface CategoryRow {
  id: number;
  name: string;
  parent_id: number | null;
}

/** Related assets as the records name them: by content and name, with the default flag. */
export async function relatedAssets(
  db: RawSql,
  assets: BulkAssets,
  tenantId: number,
  table: 'item_assets' | 'brand_assets' | 'category_assets',
  column: 'item_id' | 'brand_id' | 'category_id',
  ids: number[],
): Promise<Map<number, ImportAsset[]>> {
  const byEntity = new Map<number, ImportAsset[]>();
  if (ids.length === 0) return byEntity;
  const rows = await db.query<{ entity: number; asset_id: number; is_default: boolean }>(
    `select ${column} as entity, asset_id, is_default from ${table}
      where tenant_id = $1 and ${column} = any($2::bigint[]) order by ${column}, kind, asset_id`,
    [tenantId, ids],
  );
  if (rows.length === 0) return byEntity;
  const facts = new Map<number, AssetFacts>(
    (
      await assets.find(db, tenantId, {
        ids: [...new Set(rows.map((r) => r.asset_id))],
        sha256s: [],
      })
    ).map((a) => [a.id, a]),
  );
  for (const row of rows) {
    const asset = facts.get(row.asset_id);
    if (!asset) continue; // deleted (with force) since the relations were read
    const list = byEntity.get(row.entity) ?? [];
    list.push({
      Sha256: asset.sha256,
      FileName: asset.fileName,
      MimeType: asset.mimeType,
      IsDefault: row.is_default,
    });
    byEntity.set(row.entity, list);
  }
  return byEntity;
}

/**
 * A resource's records: `head` (what names it) in each, `first` in the first only, and the
 * entries of `lists` spread over as many as keep each within RECORD_BYTES and MAX_ENTRIES.
 */
function* spread(
  head: Record<string, unknown>,
  first: Record<string, unknown>,
  lists: [string, unknown[]][],
): Generator<Record<string, unknown>> {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  let record: Record<string, unknown> = { ...head, ...first };
  let size = bytes(record);
  let entries = 0;
  for (const [field, items] of lists)
    for (const item of items) {
      const length = bytes(item) + field.length + 8;
      let list = record[field] as unknown[] | undefined;
      if (entries > 0 && (size + length > RECORD_BYTES || (list?.length ?? 0) >= MAX_ENTRIES)) {
        yield record;
        record = { ...head };
        size = bytes(record);
        entries = 0;
        list = undefined;
      }
      if (!list) record[field] = list = [];
      list.push(item);
      size += length;
      entries++;
    }
  yield record;
}

export class ExportReferences {
  private readonly db: RawSql;
  private readonly assets: BulkAssets;
  private readonly scope: ExportScope;
  private readonly paths = new Map<number, string[]>();
  private readonly categories = new Map<number, CategoryRow>();

  constructor(db: RawSql, assets: BulkAssets, scope: ExportScope) {
    this.db = db;
    this.assets = assets;
    this.scope = scope;
  }

  /** Reads the tenant's category tree (names and parents; an item record names its path). */
  async loadTree(): Promise<void> {
    this.paths.clear();
    const rows = await this.db.query<CategoryRow>(
      'select id, name, parent_id from categories where tenant_id = $1',
      [this.scope.tenantId],
    );
    for (const row of rows) this.categories.set(row.id, row);
  }

  /** Whether the tree read has the category (one made since is not, until read again). */
  knows(id: number): boolean {
    return this.categories.has(id);
  }

  /** The names from the root down to the category. */
  pathOf(id: number): string[] {
    const known = this.paths.get(id);
    if (known) return known;
    const category = this.categories.get(id);
    if (!category) return [];
    // The tree has no cycles: the routes refuse them, and it was read in one statement.
    const path = [
      ...(category.parent_id === null ? [] : this.pathOf(category.parent_id)),
      category.name,
    ];
    this.paths.set(id, path);
    return path;
  }

  async *records(): AsyncGenerator<ReferenceRecord> {
    const { tenantId } = this.scope;
    for (const page of await this.pages('price_types', 'p.price_type_id', 'item_prices p')) {
      const rows = await this.db.query<{ symbol: string; description: string }>(
        'select symbol, description from price_types where tenant_id = $1 and id = any($2::bigint[]) order by id',
        [tenantId, page],
      );
      for (const r of rows)
        yield { RecordType: 'PriceType', PriceTypeSymbol: r.symbol, Description: r.description };
    }
    for (const page of await this.pages(
      'dynamic_attribute_types',
      'p.type_id',
      'item_attributes p',
    )) {
      const rows = await this.db.query<{ description: string }>(
        'select description from dynamic_attribute_types where tenant_id = $1 and id = any($2::bigint[]) order by id',
        [tenantId, page],
      );
      for (const r of rows) yield { RecordType: 'AttributeType', TypeName: r.description };
    }
    for (const page of await this.pages('tags', 'p.tag_id', 'item_tags p')) {
      const rows = await this.db.query<{ name: string; description: string | null }>(
        'select name, description from tags where tenant_id = $1 and id = any($2::bigint[]) order by id',
        [tenantId, page],
      );
      for (const r of rows)
        yield {
          RecordType: 'Tag',
          Tag: r.name,
          ...(r.description === null ? {} : { Description: r.description }),
        };
    }
    for (const page of await this.pages('brands', 'i.brand_id')) {
      const rows = await this.db.query<{ id: number; name: string }>(
        'select id, name from brands where tenant_id = $1 and id = any($2::bigint[]) order by id',
        [tenantId, page],
      );
      const assets = await this.related('brand_assets', 'brand_id', page);
      for (const r of rows)
        yield* spread({ RecordType: 'Brand', Brand: r.name }, {}, [
          ['Assets', assets.get(r.id) ?? []],
        ]) as Generator<ReferenceRecord>;
    }
    for (const page of await this.categoryPages()) {
      const rows = await this.db.query<{
        id: number;
        short_description: string | null;
        long_description: string | null;
      }>(
        'select id, short_description, long_description from categories where tenant_id = $1 and id = any($2::bigint[])',
        [tenantId, page],
      );
      const described = new Map(rows.map((r) => [r.id, r]));
      const metadata = new Map<number, { Key: string; Value: string }[]>();
      for (const m of await this.db.query<{ category_id: number; key: string; value: string }>(
        `select category_id, key, value from category_metadata
          where tenant_id = $1 and category_id = any($2::bigint[]) order by category_id, key`,
        [tenantId, page],
      ))
        metadata.set(m.category_id, [
          ...(metadata.get(m.category_id) ?? []),
          { Key: m.key, Value: m.value },
        ]);
      const assets = await this.related('category_assets', 'category_id', page);
      for (const id of page) {
        const row = described.get(id);
        if (!row) continue; // deleted since the tree was read
        yield* spread(
          { RecordType: 'Category', CategoryPath: this.pathOf(id) },
          {
            ...(row.short_description === null ? {} : { ShortDescription: row.short_description }),
            ...(row.long_description === null ? {} : { LongDescription: row.long_description }),
          },
          [
            ['CategoryMetadata', metadata.get(id) ?? []],
            ['Assets', assets.get(id) ?? []],
          ],
        ) as Generator<ReferenceRecord>;
      }
    }
  }

  related(
    table: 'item_assets' | 'brand_assets' | 'category_assets',
    column: 'item_id' | 'brand_id' | 'category_id',
    ids: number[],
  ): Promise<Map<number, ImportAsset[]>> {
    return relatedAssets(this.db, this.assets, this.scope.tenantId, table, column, ids);
  }

  /**
   * The ids of a table's rows the export writes, in pages: all of the tenant's, or those the
   * scope's items use (`used`, a column of `items i` or of `from`, a child table `p` of items).
   */
  private async pages(table: string, used: string, from?: string): Promise<number[][]> {
    const { tenantId, all, where, params } = this.scope;
    const rows = all
      ? await this.db.query<{ id: number }>(
          `select id from ${table} where tenant_id = $1 order by id`,
          [tenantId],
        )
      : await this.db.query<{ id: number }>(
          from
            ? `select distinct ${used} as id from ${from}
                where p.tenant_id = $1 and p.item_id in (select i.id from items i where ${where}) order by 1`
            : `select distinct ${used} as id from items i where ${where} and ${used} is not null order by 1`,
          params,
        );
    const ids = rows.map((r) => r.id);
    const pages: number[][] = [];
    for (let start = 0; start < ids.length; start += PAGE)
      pages.push(ids.slice(start, start + PAGE));
    return pages;
  }

  /** The categories to write (with the ancestors of those items use), parents first. */
  private async categoryPages(): Promise<number[][]> {
    let ids: number[];
    if (this.scope.all) ids = [...this.categories.keys()];
    else {
      const chosen = new Set<number>();
      for (const id of (await this.pages('categories', 'i.category_id')).flat())
        for (let at: number | null = id; at !== null && !chosen.has(at);) {
          chosen.add(at);
          at = this.categories.get(at)?.parent_id ?? null;
        }
      ids = [...chosen];
    }
    const depth = (id: number) => this.pathOf(id).length;
    ids.sort((a, b) => depth(a) - depth(b) || a - b);
    const pages: number[][] = [];
    for (let start = 0; start < ids.length; start += PAGE)
      pages.push(ids.slice(start, start + PAGE));
    return pages;
  }
}
