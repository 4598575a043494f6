// Items: create, read, full and partial update, delete and list (search: ../search/), with the
// referential rules of the contract. Every write that touches several rows is one transaction.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { Paging } from '../../../domain/paging.ts';
import type { AttributeService } from '../attributes/attribute-service.ts';
import type { DynamicAttribute, DynamicAttributeInput } from '../attributes/attribute-schemas.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import {
  fieldValue,
  ITEM_COLUMNS,
  ITEM_COLUMNS_AS_FIELDS,
  ITEM_FIELDS,
  type ItemFieldName,
  type ItemFieldValues,
} from './item-fields.ts';
import { ITEM_BY_ID } from './item-queries.ts';
import { ItemPageAnchors } from './item-page-anchors.ts';
import { pricesOf, replacePrices } from './item-prices.ts';
import { refuseMissingReferences, restoredItemBody } from './item-restore.ts';
import type { ItemBody, ItemPatch, Price, PriceInput } from './item-schemas.ts';
import { dissolveEmptyGroups, isVariant, type VariantService } from './variant-service.ts';

/** An item as JSON text in its wire shape (built by SQL), with its row version for the ETag. */
export interface ItemJson {
  id: number;
  json: string;
  version: number;
}

/** A page of items as JSON text: {"Results": […], "TotalCount": n}. */
export type ItemPageJson = string;

const pageJson = (results: string | undefined, total: number): ItemPageJson =>
  `{"Results":${results ?? '[]'},"TotalCount":${total}}`;

/** The item's own fields of a write: PATCH keeps the current value of a field it does not give. */
function fieldsOf(body: ItemPatch, current: ItemFieldValues | undefined): ItemFieldValues {
  const next = {} as Record<ItemFieldName, unknown>;
  for (const field of ITEM_FIELDS) {
    next[field.wire] =
      current && !(field.wire in body) ? current[field.wire] : fieldValue(field, body[field.wire]);
  }
  if (next.Title === null) throw invalidField('Title', 'is required');
  return next as ItemFieldValues;
}

/** The fields' values in ITEM_FIELDS's order, as statement parameters. */
const valuesOf = (fields: ItemFieldValues): unknown[] => ITEM_FIELDS.map((f) => fields[f.wire]);

const INSERT_ITEM = `insert into items (tenant_id, ${ITEM_COLUMNS})
  values ($1, ${ITEM_FIELDS.map((_, i) => `$${i + 2}`).join(', ')}) returning id`;

const UPDATE_ITEM = `update items set ${ITEM_FIELDS.map((f, i) => `${f.column} = $${i + 3}`).join(', ')},
         version = version + 1, date_modified = now()
  where tenant_id = $1 and id = $2`;

const LOCK_ITEM = `select ${ITEM_COLUMNS_AS_FIELDS}, default_item_id as "defaultItemId", version
  from items where tenant_id = $1 and id = $2 for update`;

export class ItemService {
  private readonly db: DatabaseHandle;
  private readonly attributes: AttributeService;
  private readonly variants: VariantService;
  private readonly pages: ItemPageAnchors;

  constructor(db: DatabaseHandle, attributes: AttributeService, variants: VariantService) {
    this.db = db;
    this.attributes = attributes;
    this.variants = variants;
    this.pages = new ItemPageAnchors(db);
  }

  /** Whether the item exists (the catalog's asset relations check it before relating an asset). */
  async exists(tenantId: number, id: number): Promise<boolean> {
    const rows = await this.db.query('select 1 from items where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  async get(tenantId: number, id: number, sql: RawSql = this.db): Promise<ItemJson> {
    const [row] = await sql.prepared<ItemJson>('catalog_item_by_id', ITEM_BY_ID, [tenantId, id]);
    if (!row) throw catalogErrors.itemNotFound(id);
    return row;
  }

  async list(tenantId: number, paging: Paging): Promise<ItemPageJson> {
    const page = await this.pages.page(tenantId, paging);
    return pageJson(`[${page.documents.join(',')}]`, page.total);
  }

  async create(tenantId: number, body: ItemBody): Promise<ItemJson> {
    const fields = fieldsOf(body, undefined);
    return this.write(async (sql) => {
      await this.checkReferences(sql, tenantId, fields);
      const [row] = await sql.query<{ id: number }>(INSERT_ITEM, [tenantId, ...valuesOf(fields)]);
      const id = row!.id;
      await this.writeCollections(sql, tenantId, id, body);
      if (body.DefaultItemId !== undefined) {
        await this.variants.assign(
          sql,
          tenantId,
          id,
          body.DefaultItemId === id ? id : body.DefaultItemId,
        );
      }
      return this.get(tenantId, id, sql);
    });
  }

  /** Full (PUT) or partial (PATCH) update; `checkVersion` enforces If-Match against the row. */
  async update(
    tenantId: number,
    id: number,
    body: ItemPatch,
    partial: boolean,
    checkVersion: VersionCheck,
  ): Promise<ItemJson> {
    assertBodyIdMatches(body.Id, id);
    return this.write((sql) => this.updateIn(sql, tenantId, id, body, partial, checkVersion));
  }

  /**
   * Restores the item to a version of its history (`versionOf` reads it in this transaction,
   * after the item is locked and If-Match checked): its fields, prices, dynamic attributes and
   * tags as that version shows them, as one full update. Its variant group stays as it is.
   */
  async restore(
    tenantId: number,
    id: number,
    checkVersion: VersionCheck,
    versionOf: (sql: RawSql) => Promise<unknown>,
  ): Promise<ItemJson> {
    return this.write(async (sql) => {
      await this.lock(sql, tenantId, id, checkVersion);
      const body = restoredItemBody(await versionOf(sql));
      await refuseMissingReferences(sql, tenantId, body);
      return this.updateIn(sql, tenantId, id, body, false, () => undefined);
    });
  }

  private async updateIn(
    sql: RawSql,
    tenantId: number,
    id: number,
    body: ItemPatch,
    partial: boolean,
    checkVersion: VersionCheck,
  ): Promise<ItemJson> {
    const current = await this.lock(sql, tenantId, id, checkVersion);
    const fields = fieldsOf(body, partial ? current : undefined);
    await this.checkReferences(sql, tenantId, fields);
    await sql.query(UPDATE_ITEM, [tenantId, id, ...valuesOf(fields)]);
    await this.writeCollections(sql, tenantId, id, body);
    if (body.DefaultItemId !== undefined)
      await this.variants.assign(sql, tenantId, id, body.DefaultItemId);
    return this.get(tenantId, id, sql);
  }

  /** Deletes an item. Deleting a default item leaves its variants stand-alone. */
  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await this.write(async (sql) => {
      const current = await this.lock(sql, tenantId, id, checkVersion);
      if (current.defaultItemId === id) {
        await sql.query(
          `update items set default_item_id = null, version = version + 1, date_modified = now()
            where tenant_id = $1 and default_item_id = $2 and id <> $2`,
          [tenantId, id],
        );
      }
      await sql.query('delete from items where tenant_id = $1 and id = $2', [tenantId, id]);
      if (
        current.defaultItemId !== null &&
        isVariant({ id, default_item_id: current.defaultItemId })
      ) {
        await dissolveEmptyGroups(sql, tenantId, [current.defaultItemId]);
      }
    });
  }

  async prices(tenantId: number, id: number): Promise<Price[]> {
    await this.requireItem(this.db, tenantId, id);
    return pricesOf(this.db, tenantId, id);
  }

  async replacePrices(tenantId: number, id: number, inputs: PriceInput[]): Promise<Price[]> {
    return this.write(async (sql) => {
      await this.touch(sql, tenantId, id);
      await replacePrices(sql, tenantId, id, inputs);
      return pricesOf(sql, tenantId, id);
    });
  }

  async dynamicAttributes(tenantId: number, id: number): Promise<DynamicAttribute[]> {
    await this.requireItem(this.db, tenantId, id);
    return this.attributes.ofItem(this.db, tenantId, id);
  }

  async replaceDynamicAttributes(
    tenantId: number,
    id: number,
    inputs: DynamicAttributeInput[],
  ): Promise<DynamicAttribute[]> {
    return this.write(async (sql) => {
      await this.touch(sql, tenantId, id);
      await this.attributes.replaceForItem(sql, tenantId, id, inputs);
      return this.attributes.ofItem(sql, tenantId, id);
    });
  }

  private write<T>(fn: (sql: RawSql) => Promise<T>): Promise<T> {
    return translatingConstraints(() => this.db.rawTransaction(fn), {
      unique: () => catalogErrors.duplicateSku(),
    });
  }

  private async lock(
    sql: RawSql,
    tenantId: number,
    id: number,
    checkVersion: VersionCheck,
  ): Promise<ItemFieldValues & { defaultItemId: number | null }> {
    const [row] = await sql.query<
      ItemFieldValues & { defaultItemId: number | null; version: number }
    >(LOCK_ITEM, [tenantId, id]);
    if (!row) throw catalogErrors.itemNotFound(id);
    checkVersion(row.version);
    return row;
  }

  private async requireItem(sql: RawSql, tenantId: number, id: number): Promise<void> {
    const [row] = await sql.query('select 1 from items where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    if (!row) throw catalogErrors.itemNotFound(id);
  }

  /** Marks the item changed (new ETag) and locks it for the rest of the transaction. */
  private async touch(sql: RawSql, tenantId: number, id: number): Promise<void> {
    const updated = await sql.query(
      'update items set version = version + 1, date_modified = now() where tenant_id = $1 and id = $2 returning id',
      [tenantId, id],
    );
    if (updated.length === 0) throw catalogErrors.itemNotFound(id);
  }

  private async checkReferences(sql: RawSql, tenantId: number, s: ItemFieldValues): Promise<void> {
    const [refs] = await sql.query<{ category: boolean; brand: boolean }>(
      `select ($2::bigint is null or exists (select 1 from categories where tenant_id = $1 and id = $2)) as category,
              ($3::bigint is null or exists (select 1 from brands where tenant_id = $1 and id = $3)) as brand`,
      [tenantId, s.CategoryId, s.BrandId],
    );
    if (!refs?.category)
      throw catalogErrors.unknownReference('CategoryId', `category ${s.CategoryId}`);
    if (!refs.brand) throw catalogErrors.unknownReference('BrandId', `brand ${s.BrandId}`);
  }

  private async writeCollections(
    sql: RawSql,
    tenantId: number,
    id: number,
    body: ItemPatch,
  ): Promise<void> {
    if (body.Prices !== undefined) await replacePrices(sql, tenantId, id, body.Prices);
    if (body.DynamicAttributes !== undefined)
      await this.attributes.replaceForItem(sql, tenantId, id, body.DynamicAttributes);
    if (body.Tags !== undefined) {
      const tagIds = [...new Set(body.Tags.map((t) => t.Id))];
      const found = await sql.query<{ id: number }>(
        'select id from tags where tenant_id = $1 and id = any($2::bigint[])',
        [tenantId, tagIds],
      );
      const known = new Set(found.map((r) => r.id));
      const unknown = body.Tags.findIndex((t) => !known.has(t.Id));
      if (unknown >= 0)
        throw invalidField(`Tags.${unknown}.Id`, `tag ${body.Tags[unknown]!.Id} does not exist`);
      await sql.query('delete from item_tags where tenant_id = $1 and item_id = $2', [
        tenantId,
        id,
      ]);
      await sql.query(
        'insert into item_tags (tenant_id, item_id, tag_id) select $1, $2, unnest($3::bigint[])',
        [tenantId, id, tagIds],
      );
    }
  }
}
