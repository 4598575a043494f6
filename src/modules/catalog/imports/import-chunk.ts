// Settles one chunk of import records inside the caller's transaction: resolves the references of
// all its records at once (ChunkReferences), settles its records that are not items
// (import-reference-records.ts), applies the rules that need the database (SKUs unique in the
// tenant and in the file, one price per price type, one value per attribute type) and, when
// writing, writes every item that passed with set-based statements: one insert per table for the
// whole chunk.
//
// Each item's JSON document is built once, for the whole chunk at a time: the chunk's item ids are
// taken from the items' identity sequence first, its prices, attributes, tags and asset relations
// go in before the items (the foreign keys are deferrable and checked at commit), so that the
// child tables' triggers find no item to rebuild (or send an event for) yet, and the items' insert
// builds the chunk's documents and facet arrays from them in the same statement, which the items'
// trigger keeps (items_build_document, ../sql/010-item-documents.sql).
import type { RawSql } from '../../../db/connection/database.ts';
import { deferConstraints } from '../../../db/queries/deferred-constraints.ts';
import {
  addRelations,
  type AssetRelation,
  type FindAssets,
  type ImportProblem,
} from './import-assets.ts';
import { fieldValue, ITEM_COLUMNS, ITEM_FIELDS, type ItemFieldName } from '../items/item-fields.ts';
import { isItem, type AnyRecord } from './import-record-check.ts';
import { settleReferenceRecords } from './import-reference-records.ts';
import { ChunkReferences, type ReferenceSet } from './import-references.ts';
import type { SourceRecord } from './import-records.ts';
import type { ImportRecord } from './import-schemas.ts';

export interface ChunkRow {
  source: SourceRecord;
  /** Set when the record passed the checks that need no database. */
  record?: AnyRecord;
  problems: ImportProblem[];
  /** How many problems the record had beyond those `problems` lists (bounded-validation.ts). */
  problemsOmitted?: number;
  /** The written item. */
  itemId?: number;
  /** A record of another type: the resource it named (found or created). */
  settled?: { field: 'CategoryId' | 'BrandId' | 'TagId' | 'PriceTypeId' | 'TypeId'; id: number };
}

export interface ChunkContext {
  tenantId: number;
  importId: number;
  createMissing: boolean;
  /** validate: check only, and remember SKUs for the later chunks of the pass; write: write. */
  mode: 'validate' | 'write';
  /** The tenant's assets by id or content (the storage module's). */
  findAssets: FindAssets;
}

interface Resolved {
  row: ChunkRow;
  record: ImportRecord;
  categoryId: number | null;
  brandId: number | null;
  prices: { typeId: number; normal: number; discount: number | null }[];
  attributes: { typeId: number; value: string }[];
  tagIds: number[];
  assets: Omit<AssetRelation, 'entityId'>[];
}

/** An imported item's own field: its category and brand as the chunk resolved their names. */
function importedValue(g: Resolved, wire: ItemFieldName): unknown {
  if (wire === 'CategoryId') return g.categoryId;
  if (wire === 'BrandId') return g.brandId;
  return (g.record as Partial<Record<ItemFieldName, unknown>>)[wire];
}

const fail = (row: ChunkRow, field: string, message: string) =>
  row.problems.push({ Field: field, Message: message });

export async function settleChunk(sql: RawSql, ctx: ChunkContext, rows: ChunkRow[]): Promise<void> {
  const candidates = rows.filter((r) => r.record && r.problems.length === 0);
  const refs = new ChunkReferences();
  for (const { record } of candidates) refs.add(record!);
  await refs.load(sql, ctx.tenantId, ctx.createMissing && ctx.mode === 'write', ctx.findAssets);
  // The chunk's other records first: an item may name what one of them brings.
  const items = candidates.filter((r) => isItem(r.record!));
  if (items.length < candidates.length)
    await settleReferenceRecords(
      sql,
      ctx,
      refs,
      candidates.filter((r) => !isItem(r.record!)),
    );
  const resolved = resolveItems(ctx, refs, items);
  await checkSkus(sql, ctx, resolved);
  const good = resolved.filter((r) => r.row.problems.length === 0);
  if (ctx.mode === 'write' && good.length > 0) await writeItems(sql, ctx, good);
}

function resolveItems(ctx: ChunkContext, refs: ChunkReferences, rows: ChunkRow[]): Resolved[] {
  const wouldCreate = ctx.createMissing && ctx.mode === 'validate';
  const resolved: Resolved[] = [];
  for (const row of rows) {
    const r = row.record as ImportRecord;
    const one = (set: ReferenceSet, field: string, id?: number | null, name?: string | null) => {
      if (id == null && name == null) return null;
      const result = set.resolve({ id, name }, wouldCreate);
      if ('problem' in result) {
        fail(row, field, result.problem);
        return null;
      }
      return result.id;
    };
    let categoryId: number | null;
    if (r.CategoryPath != null) {
      const result = refs.categoryPaths.resolve(r.CategoryPath, wouldCreate);
      categoryId = 'problem' in result ? null : result.id;
      if ('problem' in result) fail(row, 'CategoryPath', result.problem);
    } else
      categoryId = one(
        refs.categories,
        r.CategoryId != null ? 'CategoryId' : 'Category',
        r.CategoryId,
        r.Category,
      );
    const brandId = one(refs.brands, r.BrandId != null ? 'BrandId' : 'Brand', r.BrandId, r.Brand);
    const prices: Resolved['prices'] = [];
    (r.Prices ?? []).forEach((p, i) => {
      const field = `Prices.${i}.${p.PriceTypeId != null ? 'PriceTypeId' : 'PriceTypeSymbol'}`;
      const typeId = one(refs.priceTypes, field, p.PriceTypeId, p.PriceTypeSymbol);
      if (typeId === null) return;
      if (typeId !== 0 && prices.some((q) => q.typeId === typeId))
        fail(
          row,
          field,
          `This item has two prices of one price type (${p.PriceTypeSymbol ?? p.PriceTypeId}). Give one price per price type.`,
        );
      prices.push({ typeId, normal: p.NormalPrice, discount: p.DiscountPrice ?? null });
    });
    const attributes: Resolved['attributes'] = [];
    (r.DynamicAttributes ?? []).forEach((a, i) => {
      const field = `DynamicAttributes.${i}.${a.TypeId != null ? 'TypeId' : 'TypeName'}`;
      const typeId = one(refs.types, field, a.TypeId, a.TypeName);
      if (typeId === null) return;
      if (typeId !== 0 && attributes.some((b) => b.typeId === typeId))
        fail(
          row,
          field,
          `This item has two values of one attribute type (${a.TypeName ?? a.TypeId}). Give one value per attribute type.`,
        );
      attributes.push({ typeId, value: a.Value });
    });
    const tagIds = new Set<number>();
    (r.Tags ?? []).forEach((t, i) => {
      const tagId = one(refs.tags, `Tags.${i}.${t.Id != null ? 'Id' : 'Name'}`, t.Id, t.Name);
      if (tagId !== null) tagIds.add(tagId);
    });
    const assets = refs.assets.resolve(r.Assets, row.problems);
    resolved.push({
      row,
      record: r,
      categoryId,
      brandId,
      prices,
      attributes,
      tagIds: [...tagIds],
      assets,
    });
  }
  return resolved;
}

const skuTaken = (sku: string) => `The SKU "${sku}" is also the SKU of`;
const OWN_SKU = 'Give each item a SKU of its own, or leave SKU empty.';

/** A SKU is unique in the tenant: not on an item already there, nor twice in the file. */
async function checkSkus(sql: RawSql, ctx: ChunkContext, resolved: Resolved[]): Promise<void> {
  const firstLine = new Map<string, number>();
  for (const { row, record } of resolved) {
    if (record.SKU == null) continue;
    const seen = firstLine.get(record.SKU);
    if (seen !== undefined)
      fail(row, 'SKU', `${skuTaken(record.SKU)} line ${seen} of the file. ${OWN_SKU}`);
    else firstLine.set(record.SKU, row.source.line);
  }
  const skus = [...firstLine.keys()];
  if (skus.length === 0) return;
  const taken = new Set(
    (
      await sql.query<{ sku: string }>(
        // One lookup of the (tenant_id, sku) index per SKU: a new tenant's statistics are stale
        // while it fills, and the planner's own plan read every item of the tenant per chunk.
        `select s.sku from unnest($2::text[]) as s(sku)
           cross join lateral (select from items where tenant_id = $1 and sku = s.sku limit 1) i`,
        [ctx.tenantId, skus],
      )
    ).map((r) => r.sku),
  );
  if (ctx.mode === 'validate') {
    // Nothing is written while validating, so the file's earlier SKUs are remembered here.
    const added = await sql.query<{ sku: string }>(
      `insert into catalog_import_skus (tenant_id, import_id, sku)
       select $1, $2, s from unnest($3::text[]) s on conflict do nothing returning sku`,
      [ctx.tenantId, ctx.importId, skus],
    );
    const fresh = new Set(added.map((r) => r.sku));
    for (const sku of skus) if (!fresh.has(sku)) taken.add(`\0file:${sku}`);
    for (const { row, record } of resolved)
      if (record.SKU != null && taken.has(`\0file:${record.SKU}`))
        fail(row, 'SKU', `${skuTaken(record.SKU)} an earlier line of the file. ${OWN_SKU}`);
  }
  for (const { row, record } of resolved)
    if (record.SKU != null && taken.has(record.SKU))
      fail(row, 'SKU', `${skuTaken(record.SKU)} an item already in the catalog. ${OWN_SKU}`);
}

async function writeItems(sql: RawSql, ctx: ChunkContext, good: Resolved[]): Promise<void> {
  const { tenantId } = ctx;
  const ids = await sql.query<{ id: number }>(
    `select nextval(pg_get_serial_sequence('items', 'id')) as id from generate_series(1, $1)`,
    [good.length],
  );
  good.forEach((g, i) => (g.row.itemId = ids[i]!.id));
  const defaults = await assignGroups(sql, ctx, good);

  await deferConstraints(sql, tenantId, 'items');
  const prices = good.flatMap((g) => g.prices.map((p) => ({ item: g.row.itemId!, ...p })));
  if (prices.length > 0)
    await sql.query(
      `insert into item_prices (tenant_id, item_id, price_type_id, normal_price, discount_price)
       select $1, i, t, n, d from unnest($2::bigint[], $3::bigint[], $4::numeric[], $5::numeric[]) as x(i, t, n, d)`,
      [
        tenantId,
        prices.map((p) => p.item),
        prices.map((p) => p.typeId),
        prices.map((p) => p.normal),
        prices.map((p) => p.discount),
      ],
    );
  const attributes = good.flatMap((g) => g.attributes.map((a) => ({ item: g.row.itemId!, ...a })));
  if (attributes.length > 0) {
    const typeIds = attributes.map((a) => a.typeId);
    const values = attributes.map((a) => a.value);
    // The values new to the tenant are added (as an item write through the API does).
    await sql.query(
      `insert into dynamic_attribute_values (tenant_id, type_id, value)
       select distinct $1::int, t, v from unnest($2::bigint[], $3::text[]) as x(t, v) order by 2, 3
       on conflict do nothing`,
      [tenantId, typeIds, values],
    );
    await sql.query(
      `insert into item_attributes (tenant_id, item_id, type_id, value_id)
       select $1, x.i, x.t, v.id from unnest($2::bigint[], $3::bigint[], $4::text[]) as x(i, t, value)
         join dynamic_attribute_values v on v.tenant_id = $1 and v.type_id = x.t and v.value = x.value`,
      [tenantId, attributes.map((a) => a.item), typeIds, values],
    );
  }
  const tags = good.flatMap((g) => g.tagIds.map((t) => ({ item: g.row.itemId!, tag: t })));
  if (tags.length > 0)
    await sql.query(
      `insert into item_tags (tenant_id, item_id, tag_id) select $1, i, t from unnest($2::bigint[], $3::bigint[]) as x(i, t)`,
      [tenantId, tags.map((t) => t.item), tags.map((t) => t.tag)],
    );

  // Before the items too (migration 0190), so that the relations' event trigger finds no item
  // to send again: the items' insert sends each one's event.
  await addRelations(
    sql,
    tenantId,
    'items',
    good.flatMap((g) => g.assets.map((a) => ({ ...a, entityId: g.row.itemId! }))),
    true,
  );

  const col = <T>(f: (g: Resolved) => T) => good.map(f);
  // The documents and facet arrays are built here for the whole chunk (the trigger keeps them,
  // see items_build_document): one statement joins the chunk's items to their children, instead of the
  // trigger running its lookups and JSON build as a separate query for every row.
  // jit off: the lateral lookups' estimated cost crosses jit_above_cost on PostgreSQL, and
  // compiling the plan took longer (40-50 ms) than running it. Both settings are put back after.
  const [before] = await sql.query<{ jit: string }>(
    `select current_setting('jit') as jit,
            set_config('omni.item_documents_given', 'on', true), set_config('jit', 'off', true)`,
  );
  await sql.query(
    `insert into items (tenant_id, id, ${ITEM_COLUMNS}, default_item_id,
                        date_added, date_modified, document,
                        facet_tag_ids, facet_value_ids, facet_price_type_ids, facet_prices)
     select $1, n.id, ${ITEM_FIELDS.map((f) => `n.${f.column}`).join(', ')}, n.default_item_id,
            now(), now(),
            item_document_text(n.id, n.sku, n.rfid, n.uuid, n.name, n.title, n.model, n.short_description,
              n.long_description, n.item_status_id, n.category_id, n.brand_id, n.default_item_id, n.in_stock,
              n.public_web_link, n.rating, 0, now(), now(),
              coalesce(p.json, ''), coalesce(a.json, ''), coalesce(g.json, '')),
            coalesce(g.ids, '{}'), coalesce(a.ids, '{}'), coalesce(p.type_ids, '{}'), coalesce(p.pays, '{}')
       from unnest($2::bigint[], ${ITEM_FIELDS.map((f, i) => `$${i + 3}::${f.type}[]`).join(', ')},
                   $${ITEM_FIELDS.length + 3}::bigint[])
            as n(id, ${ITEM_COLUMNS}, default_item_id)
       -- Per item, by the child tables' keys (tenant_id, item_id, …): a plan that groups the
       -- tenant's whole child table is what the planner picks otherwise, slower as it grows.
       cross join lateral (
         select string_agg(item_price_json(p.id, p.item_id, p.normal_price, p.discount_price, p.price_type_id, t.symbol),
                           ',' order by p.price_type_id) as json,
                array_agg(p.price_type_id order by p.price_type_id) as type_ids,
                array_agg(coalesce(p.discount_price, p.normal_price)::float8 order by p.price_type_id) as pays
           from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
          where p.tenant_id = $1 and p.item_id = n.id) p
       cross join lateral (
         select string_agg(item_attribute_json(a.type_id, a.value_id, v.value, d.description), ',' order by a.type_id) as json,
                array_agg(a.value_id order by a.type_id) as ids
           from item_attributes a
           join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
           join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
          where a.tenant_id = $1 and a.item_id = n.id) a
       cross join lateral (
         select string_agg(item_tag_json(t.id, t.name, t.description), ',' order by t.id) as json,
                array_agg(m.tag_id order by m.tag_id) as ids
           from item_tags m join tags t on t.tenant_id = m.tenant_id and t.id = m.tag_id
          where m.tenant_id = $1 and m.item_id = n.id) g`,
    [
      tenantId,
      col((g) => g.row.itemId),
      ...ITEM_FIELDS.map((field) => col((g) => fieldValue(field, importedValue(g, field.wire)))),
      col((g) => defaults.get(g.row.itemId!) ?? null),
    ],
  );
  await sql.query(
    `select set_config('omni.item_documents_given', 'off', true), set_config('jit', $1, true)`,
    [before!.jit],
  );
}

/**
 * Variant groups by GroupKey: a key's first record (in this chunk or an earlier one) is the
 * group's default item, every later one a variant of it. A default item becomes one (its
 * DefaultItemId its own id) with its first variant, as through the API: a group of one is none.
 * Answers each grouped new item's DefaultItemId.
 */
async function assignGroups(
  sql: RawSql,
  { tenantId, importId }: ChunkContext,
  good: Resolved[],
): Promise<Map<number, number>> {
  const keys = [
    ...new Set(good.flatMap((g) => (g.record.GroupKey != null ? [g.record.GroupKey] : []))),
  ];
  const defaults = new Map<number, number>();
  if (keys.length === 0) return defaults;
  const known = new Map(
    (
      await sql.query<{ group_key: string; default_item_id: number }>(
        `select group_key, default_item_id from catalog_import_groups
          where tenant_id = $1 and import_id = $2 and group_key = any($3::text[])`,
        [tenantId, importId, keys],
      )
    ).map((r) => [r.group_key, r.default_item_id]),
  );
  const earlier = new Set(known.values());
  const fresh: [string, number][] = [];
  const earlierWithVariants = new Set<number>();
  for (const g of good) {
    const key = g.record.GroupKey;
    if (key == null) continue;
    const id = g.row.itemId!;
    const defaultId = known.get(key);
    if (defaultId === undefined) {
      known.set(key, id);
      fresh.push([key, id]);
      continue;
    }
    defaults.set(id, defaultId);
    if (earlier.has(defaultId)) earlierWithVariants.add(defaultId);
    else defaults.set(defaultId, defaultId);
  }
  if (fresh.length > 0)
    await sql.query(
      `insert into catalog_import_groups (tenant_id, import_id, group_key, default_item_id)
       select $1, $2, k, d from unnest($3::text[], $4::bigint[]) as x(k, d)`,
      [tenantId, importId, fresh.map(([k]) => k), fresh.map(([, d]) => d)],
    );
  if (earlierWithVariants.size > 0)
    await sql.query(
      `update items set default_item_id = id, version = version + 1, date_modified = now()
        where tenant_id = $1 and id = any($2::bigint[]) and default_item_id is null`,
      [tenantId, [...earlierWithVariants]],
    );
  return defaults;
}
