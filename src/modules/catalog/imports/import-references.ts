// Resolves the references of a chunk's records to ids, by id or by name, in one query per kind:
// categories, brands, tags, dynamic attribute types and price types (and, in ChunkReferences,
// category paths and assets). Names are matched as the rules that keep them unique compare them
// (case-insensitively: the unique indexes of brands, tags and attribute types, and the name rules
// of price type symbols and sibling categories, catalog-name-rules.ts). Missing names are created
// when the import asks for it (only when writing: a validation pass only tells whether they would
// be), under the lock of their kind where no unique index guards them.
import type { RawSql } from '../../../db/connection/database.ts';
import { CREATE_MISSING_ADVICE } from './import-problem-words.ts';
import { CATEGORY_LOCK, PRICE_TYPE_LOCK } from '../catalog-name-rules.ts';
import { AssetSet, type FindAssets } from './import-assets.ts';
import { CategoryTree } from './import-categories.ts';
import type { AnyRecord } from './import-record-check.ts';

interface ReferenceKind {
  table: string;
  /** The column a name is matched against. */
  column: string;
  /** Names are compared lower-cased (the table's unique index does so). */
  folded: boolean;
  /** The insert of missing names: $1 tenant, $2 names, $3 descriptions (tags, price types). */
  create: string;
  /**
   * The advisory lock (catalog-name-rules.ts) that writers of such names take, where no unique
   * index guards them: taken before missing names are looked for again and created.
   */
  lock?: string;
}

export const REFERENCE_KINDS = {
  category: {
    table: 'categories',
    column: 'name',
    folded: true,
    // A name found nowhere in the tree, so no top-level category has it either.
    create: 'insert into categories (tenant_id, name) select $1, n from unnest($2::text[]) n',
    lock: CATEGORY_LOCK,
  },
  brand: {
    table: 'brands',
    column: 'name',
    folded: true,
    create:
      'insert into brands (tenant_id, name) select $1, n from unnest($2::text[]) n on conflict do nothing',
  },
  tag: {
    table: 'tags',
    column: 'name',
    folded: true,
    create: `insert into tags (tenant_id, name, description)
             select $1, n, d from unnest($2::text[], $3::text[]) as x(n, d) on conflict do nothing`,
  },
  attributeType: {
    table: 'dynamic_attribute_types',
    column: 'description',
    folded: true,
    create: `insert into dynamic_attribute_types (tenant_id, description)
             select $1, n from unnest($2::text[]) n on conflict do nothing`,
  },
  priceType: {
    table: 'price_types',
    column: 'symbol',
    folded: true,
    // Without a PriceType record's Description, the symbol is the description.
    create: `insert into price_types (tenant_id, description, symbol)
             select $1, coalesce(d, n), n from unnest($2::text[], $3::text[]) as x(n, d)`,
    lock: PRICE_TYPE_LOCK,
  },
} satisfies Record<string, ReferenceKind>;
export type ReferenceKindName = keyof typeof REFERENCE_KINDS;

export type Resolution = { id: number } | { problem: string };

/** The references of one kind a chunk names, and what they resolve to. */
export class ReferenceSet {
  private readonly kind: ReferenceKind;
  private readonly label: string;
  /** How a name of this kind is spoken of: "named" ("a brand named …"), "with the symbol". */
  private readonly naming: string;
  private readonly ids = new Set<number>();
  /** Name key → the name as first written, and its description (tags). */
  private readonly names = new Map<string, { name: string; description: string | null }>();
  private knownIds = new Set<number>();
  private byName = new Map<string, number[]>();

  constructor(kindName: ReferenceKindName, label: string, naming = 'named') {
    this.kind = REFERENCE_KINDS[kindName];
    this.label = label;
    this.naming = naming;
  }

  private key(name: string): string {
    return this.kind.folded ? name.toLowerCase() : name;
  }

  addId(id: number): void {
    this.ids.add(id);
  }

  /** A name the chunk refers to; the first description given for it is the one created. */
  addName(name: string, description: string | null = null): void {
    const key = this.key(name);
    const known = this.names.get(key);
    if (!known) this.names.set(key, { name, description });
    else if (known.description === null) known.description = description;
  }

  /** Looks every id and name up; creates missing names first when `create`. */
  async load(sql: RawSql, tenantId: number, create: boolean): Promise<void> {
    const { table, column, folded } = this.kind;
    if (this.ids.size > 0) {
      const rows = await sql.query<{ id: number }>(
        `select id from ${table} where tenant_id = $1 and id = any($2::bigint[])`,
        [tenantId, [...this.ids]],
      );
      this.knownIds = new Set(rows.map((r) => r.id));
    }
    if (this.names.size === 0) return;
    const match = folded ? `lower(${column})` : column;
    const lookUp = async (keys: string[]) => {
      const rows = await sql.query<{ id: number; key: string }>(
        `select id, ${match} as key from ${table} where tenant_id = $1 and ${match} = any($2::text[]) order by id`,
        [tenantId, keys],
      );
      for (const row of rows)
        this.byName.set(row.key, [...(this.byName.get(row.key) ?? []), row.id]);
    };
    await lookUp([...this.names.keys()]);
    if (!create) return;
    const missingNow = () => [...this.names.entries()].filter(([key]) => !this.byName.has(key));
    let missing = missingNow();
    if (missing.length === 0) return;
    if (this.kind.lock) {
      // Writers of these names take turns; one may have created some since the lookup.
      await sql.query(this.kind.lock, [tenantId]);
      await lookUp(missing.map(([key]) => key));
      missing = missingNow();
      if (missing.length === 0) return;
    }
    const names = missing.map(([, v]) => v.name);
    const descriptions = missing.map(([, v]) => v.description);
    await sql.query(
      this.kind.create,
      this.kind.create.includes('$3') ? [tenantId, names, descriptions] : [tenantId, names],
    );
    await lookUp(missing.map(([key]) => key));
  }

  /**
   * What an id or a name stands for. `wouldCreate`: a missing name is fine (a validation pass
   * of an import that creates missing names); it resolves to id 0. A problem is a sentence that
   * names the value and says what to do (the per-row results carry it as is).
   */
  resolve(ref: { id?: number | null; name?: string | null }, wouldCreate: boolean): Resolution {
    if (ref.id != null)
      return this.knownIds.has(ref.id)
        ? { id: ref.id }
        : {
            problem: `The catalog has no ${this.label} with the id ${ref.id}. Give the id of an existing ${this.label}, or its name.`,
          };
    const name = ref.name!;
    const ids = this.byName.get(this.key(name));
    if (!ids)
      return wouldCreate
        ? { id: 0 }
        : {
            problem: `The catalog has no ${this.label} ${this.naming} "${name}". ${CREATE_MISSING_ADVICE}`,
          };
    if (ids.length > 1)
      return {
        problem: `The catalog has ${ids.length} ${this.label}s ${this.naming} "${name}". Give the id of the one you mean instead.`,
      };
    return { id: ids[0]! };
  }
}

/**
 * Every reference of one chunk's records, of every kind, looked up together (one query per kind,
 * one per level of the category paths, one for the assets), missing ones created first when
 * `create`.
 */
export class ChunkReferences {
  readonly categories = new ReferenceSet('category', 'category');
  readonly categoryPaths = new CategoryTree();
  readonly brands = new ReferenceSet('brand', 'brand');
  readonly tags = new ReferenceSet('tag', 'tag');
  readonly types = new ReferenceSet('attributeType', 'attribute type');
  readonly priceTypes = new ReferenceSet('priceType', 'price type', 'with the symbol');
  readonly assets = new AssetSet();

  add(record: AnyRecord): void {
    switch (record.RecordType) {
      case 'Category':
        this.categoryPaths.add(record.CategoryPath, {
          shortDescription: record.ShortDescription,
          longDescription: record.LongDescription,
        });
        this.assets.add(record.Assets);
        return;
      case 'Brand':
        this.brands.addName(record.Brand);
        this.assets.add(record.Assets);
        return;
      case 'Tag':
        this.tags.addName(record.Tag, record.Description ?? null);
        return;
      case 'PriceType':
        this.priceTypes.addName(record.PriceTypeSymbol, record.Description ?? null);
        return;
      case 'AttributeType':
        this.types.addName(record.TypeName);
        return;
    }
    if (record.CategoryId != null) this.categories.addId(record.CategoryId);
    if (record.Category != null) this.categories.addName(record.Category);
    if (record.CategoryPath != null) this.categoryPaths.add(record.CategoryPath);
    if (record.BrandId != null) this.brands.addId(record.BrandId);
    if (record.Brand != null) this.brands.addName(record.Brand);
    for (const t of record.Tags ?? []) {
      if (t.Id != null) this.tags.addId(t.Id);
      else this.tags.addName(t.Name!, t.Description ?? null);
    }
    for (const a of record.DynamicAttributes ?? []) {
      if (a.TypeId != null) this.types.addId(a.TypeId);
      else this.types.addName(a.TypeName!);
    }
    for (const p of record.Prices ?? []) {
      if (p.PriceTypeId != null) this.priceTypes.addId(p.PriceTypeId);
      else this.priceTypes.addName(p.PriceTypeSymbol!);
    }
    this.assets.add(record.Assets);
  }

  async load(sql: RawSql, tenantId: number, create: boolean, findAssets: FindAssets) {
    // The paths before the names: a root category a path creates is then found by its name.
    await this.categoryPaths.load(sql, tenantId, create);
    for (const set of [this.categories, this.brands, this.tags, this.types, this.priceTypes])
      await set.load(sql, tenantId, create);
    await this.assets.load(sql, tenantId, findAssets);
  }
}
