// Relations of assets to items, brands and categories (contract §5.3): one table per entity kind,
// each with real foreign keys (see the migration), at most one default per entity and kind.
import type { DatabaseHandle, RawSql } from '../../db/database.ts';
import { translatingConstraints } from '../../db/constraint-translation.ts';
import { notFound } from '../../domain/domain-error.ts';
import type { AssetFamily } from './content-check.ts';
import { assetUrl, type AssetService } from './asset-service.ts';
import {
  assetKindMismatch,
  assetNotFound,
  duplicateRelation,
  relationNotFound,
} from './storage-errors.ts';
import type { RelatedAssetJson, RelationJson } from './relation-schemas.ts';

export type RelatedEntity = 'items' | 'brands' | 'categories';
export const RELATED_ENTITIES: readonly RelatedEntity[] = ['items', 'brands', 'categories'];

/** Whether the catalog has this entity (the catalog module answers, through app.ts). */
export type EntityExists = (
  entity: RelatedEntity,
  tenantId: number,
  id: number,
) => Promise<boolean>;

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
  private readonly assets: AssetService;
  private readonly entityExists: EntityExists;

  constructor(db: DatabaseHandle, assets: AssetService, entityExists: EntityExists) {
    this.db = db;
    this.assets = assets;
    this.entityExists = entityExists;
  }

  private async requireEntity(target: RelationTarget): Promise<void> {
    if (!(await this.entityExists(target.entity, target.tenantId, target.entityId))) {
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
    if (family === undefined) throw assetNotFound(assetId);
    if (family !== target.kind) throw assetKindMismatch(family, target.kind);
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
        unique: () => duplicateRelation(assetId),
        missingReference: (violation) =>
          violation.constraint?.includes('asset_id')
            ? assetNotFound(assetId)
            : notFound(`${name} ${target.entityId}`),
      },
    );
    return { AssetId: assetId, RelatedId: target.entityId, IsDefault: isDefault };
  }

  async list(target: RelationTarget, baseUrl: string): Promise<RelatedAssetJson[]> {
    await this.requireEntity(target);
    const { table, column } = TABLES[target.entity];
    const rows = await this.db.query<{
      asset_id: number;
      is_default: boolean;
      url_key: string;
      mime_type: string;
      file_name: string;
    }>(
      `select r.asset_id, r.is_default, a.url_key, a.mime_type, a.file_name
         from ${table} r join assets a on a.tenant_id = r.tenant_id and a.id = r.asset_id
        where r.tenant_id = $1 and r.${column} = $2 and r.kind = $3
        order by r.asset_id`,
      [target.tenantId, target.entityId, target.kind],
    );
    return rows.map((row) => ({
      AssetId: row.asset_id,
      AssetUrl: assetUrl(baseUrl, row.url_key),
      MimeType: row.mime_type,
      FileName: row.file_name,
      IsDefault: row.is_default,
    }));
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
    if (updated.length === 0) throw relationNotFound(assetId);
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
    if (deleted.length === 0) throw relationNotFound(assetId);
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
