// Relations of assets to items, brands and categories (contract §5.3): one table per entity kind,
// each with real foreign keys (see the migration), at most one default per entity and kind. The
// assets themselves are the storage module's, read through RelatedAssets.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import { notFound } from '../../../domain/domain-error.ts';
import type { AssetFamily, RelatedAssets } from '../catalog-assets.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { RelatedAssetJson, RelationJson } from './relation-schemas.ts';

export type RelatedEntity = 'items' | 'brands' | 'categories';
export const RELATED_ENTITIES: readonly RelatedEntity[] = ['items', 'brands', 'categories'];

/** The kinds of relation: an asset is related as what its family is. */
export const RELATION_KINDS: readonly AssetFamily[] = ['image', 'video', 'document'];

/** Whether the catalog has this item, brand or category. */
export type EntityExists = Record<
  RelatedEntity,
  (tenantId: number, id: number) => Promise<boolean>
>;

const TABLES: Record<RelatedEntity, { table: string; column: string; name: string }> = {
  items: { table: 'item_assets', column: 'item_id', name: 'Item' },
  brands: { table: 'brand_assets', column: 'brand_id', name: 'Brand' },
  categories: { table: 'category_assets', column: 'category_id', name: 'Category' },
};

export interface RelationTarget {
  tenantId: number;
  entity: RelatedEntity;
  entityId: number;
  kind: AssetFamily;
}

export class RelationService {
  private readonly db: DatabaseHandle;
  private readonly assets: RelatedAssets;
  private readonly entityExists: EntityExists;

  constructor(db: DatabaseHandle, assets: RelatedAssets, entityExists: EntityExists) {
    this.db = db;
    this.assets = assets;
    this.entityExists = entityExists;
  }

  private async requireEntity(target: RelationTarget): Promise<void> {
    if (!(await this.entityExists[target.entity](target.tenantId, target.entityId))) {
      throw notFound(`${TABLES[target.entity].name} ${target.entityId}`);
    }
  }

  /**
   * Relates an asset: 404 for an unknown entity or asset, 409 when the asset's family is not
   * the kind, or when it is related already. The foreign keys catch an entity or asset deleted
   * between these checks and the insert (404 too).
   */
  async add(target: RelationTarget, assetId: number, isDefault: boolean): Promise<RelationJson> {
    await this.requireEntity(target);
    const family = await this.assets.familyOf(target.tenantId, assetId);
    if (family === undefined) throw catalogErrors.assetNotFound(assetId);
    if (family !== target.kind) throw catalogErrors.assetKindMismatch(family, target.kind);
    const { table, column, name } = TABLES[target.entity];
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          if (isDefault) await this.clearDefault(sql, target);
          await sql.query(
            `insert into ${table} (tenant_id, ${column}, asset_id, kind, is_default)
             values ($1, $2, $3, $4, $5)`,
            [target.tenantId, target.entityId, assetId, target.kind, isDefault],
          );
        }),
      {
        unique: () => catalogErrors.duplicateRelation(assetId),
        missingReference: (violation) =>
          violation.constraint?.includes('asset_id')
            ? catalogErrors.assetNotFound(assetId)
            : notFound(`${name} ${target.entityId}`),
      },
    );
    return { AssetId: assetId, RelatedId: target.entityId, IsDefault: isDefault };
  }

  async list(target: RelationTarget, baseUrl: string): Promise<RelatedAssetJson[]> {
    await this.requireEntity(target);
    const { table, column } = TABLES[target.entity];
    const rows = await this.db.query<{ asset_id: number; is_default: boolean }>(
      `select asset_id, is_default from ${table}
        where tenant_id = $1 and ${column} = $2 and kind = $3
        order by asset_id`,
      [target.tenantId, target.entityId, target.kind],
    );
    const assets = await this.assets.describe(
      target.tenantId,
      rows.map((row) => row.asset_id),
      baseUrl,
    );
    // An asset deleted (with force) between the two reads is left out, as it would be a moment later.
    return rows.flatMap((row) => {
      const asset = assets.get(row.asset_id);
      return asset
        ? [
            {
              AssetId: row.asset_id,
              AssetUrl: asset.url,
              MimeType: asset.mimeType,
              FileName: asset.fileName,
              IsDefault: row.is_default,
            },
          ]
        : [];
    });
  }

  /** Sets IsDefault of a relation; making it the default clears the previous one. */
  async update(target: RelationTarget, assetId: number, isDefault: boolean): Promise<RelationJson> {
    await this.requireEntity(target);
    const { table, column } = TABLES[target.entity];
    const updated = await this.db.rawTransaction(async (sql) => {
      if (isDefault) await this.clearDefault(sql, target, assetId);
      return sql.query(
        `update ${table} set is_default = $5
          where tenant_id = $1 and ${column} = $2 and kind = $3 and asset_id = $4 returning asset_id`,
        [target.tenantId, target.entityId, target.kind, assetId, isDefault],
      );
    });
    if (updated.length === 0) throw catalogErrors.relationNotFound(assetId);
    return { AssetId: assetId, RelatedId: target.entityId, IsDefault: isDefault };
  }

  async remove(target: RelationTarget, assetId: number): Promise<void> {
    await this.requireEntity(target);
    const { table, column } = TABLES[target.entity];
    const deleted = await this.db.query(
      `delete from ${table} where tenant_id = $1 and ${column} = $2 and kind = $3 and asset_id = $4
       returning asset_id`,
      [target.tenantId, target.entityId, target.kind, assetId],
    );
    if (deleted.length === 0) throw catalogErrors.relationNotFound(assetId);
  }

  /** Removes every relation of an asset (its forced delete, in the delete's transaction). */
  async removeAllOf(sql: RawSql, tenantId: number, assetId: number): Promise<void> {
    for (const { table } of Object.values(TABLES))
      await sql.query(`delete from ${table} where tenant_id = $1 and asset_id = $2`, [
        tenantId,
        assetId,
      ]);
  }

  /**
   * Clears the current default of the entity and kind (except `keep`). Concurrent requests for
   * the same entity and kind take turns on a transaction-scoped advisory lock, so each sees the
   * default the previous one set and the unique index on defaults is never hit.
   */
  private async clearDefault(sql: RawSql, target: RelationTarget, keep = 0): Promise<void> {
    const { table, column } = TABLES[target.entity];
    await sql.query('select pg_advisory_xact_lock($1::int, hashtext($2)::int)', [
      target.tenantId,
      `storage.default:${table}:${target.entityId}:${target.kind}`,
    ]);
    await sql.query(
      `update ${table} set is_default = false
        where tenant_id = $1 and ${column} = $2 and kind = $3 and is_default and asset_id <> $4`,
      [target.tenantId, target.entityId, target.kind, keep],
    );
  }
}
