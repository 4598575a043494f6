// Asset relations of import records (Assets: images, videos and documents of an item, a brand or
// a category). An import copies no asset: it relates assets the tenant has, found by id or by
// content (the SHA-256 an export writes, narrowed by file name and MIME type when given), all
// the chunk's in one lookup. The relation's kind is the asset's family, as through the API.
import type { RawSql } from '../../../db/connection/database.ts';
import type { FieldError } from '../../../domain/domain-error.ts';
import type { AssetFacts, AssetFamily, RelatedAssets } from '../catalog-assets.ts';
import type { ImportAsset } from './import-schemas.ts';

export type FindAssets = RelatedAssets['find'];

/** A row's problem; `Code` tells an asset missing from the tenant (docs/api.md). */
export type ImportProblem = FieldError & { Code?: string };

export interface AssetRelation {
  entityId: number;
  assetId: number;
  kind: AssetFamily;
  isDefault: boolean;
}

const TABLES = {
  items: { table: 'item_assets', column: 'item_id' },
  brands: { table: 'brand_assets', column: 'brand_id' },
  categories: { table: 'category_assets', column: 'category_id' },
} as const;

export class AssetSet {
  private readonly ids = new Set<number>();
  private readonly sha256s = new Set<string>();
  private readonly byId = new Map<number, AssetFacts>();
  private readonly bySha256 = new Map<string, AssetFacts[]>();

  add(refs: readonly ImportAsset[] | undefined): void {
    for (const ref of refs ?? []) {
      if (ref.AssetId != null) this.ids.add(ref.AssetId);
      else if (ref.Sha256 != null) this.sha256s.add(ref.Sha256.toLowerCase());
    }
  }

  async load(sql: RawSql, tenantId: number, find: FindAssets): Promise<void> {
    if (this.ids.size === 0 && this.sha256s.size === 0) return;
    const found = await find(sql, tenantId, { ids: [...this.ids], sha256s: [...this.sha256s] });
    for (const asset of found.sort((a, b) => a.id - b.id)) {
      this.byId.set(asset.id, asset);
      this.bySha256.set(asset.sha256, [...(this.bySha256.get(asset.sha256) ?? []), asset]);
    }
  }

  /**
   * A record's assets as relations of `entityId` (0 until the entity has its id), the problems
   * into `problems`: an asset the tenant does not have, one given twice, two defaults of a kind.
   * Among several assets of the same bytes (and name and type, when given) the oldest is taken.
   */
  resolve(
    refs: readonly ImportAsset[] | undefined,
    problems: ImportProblem[],
  ): Omit<AssetRelation, 'entityId'>[] {
    const relations: Omit<AssetRelation, 'entityId'>[] = [];
    const defaults = new Set<AssetFamily>();
    (refs ?? []).forEach((ref, i) => {
      const byId = ref.AssetId != null;
      const candidates = byId
        ? [this.byId.get(ref.AssetId!)].filter((a) => a !== undefined)
        : (this.bySha256.get(ref.Sha256!.toLowerCase()) ?? []);
      const asset = candidates.find(
        (a) =>
          (ref.FileName == null || a.fileName === ref.FileName) &&
          (ref.MimeType == null || a.mimeType.toLowerCase() === ref.MimeType.toLowerCase()),
      );
      if (!asset) {
        problems.push({
          Field: `Assets.${i}.${byId ? 'AssetId' : 'Sha256'}`,
          Message: byId
            ? `The catalog has no asset with the id ${ref.AssetId}${candidates.length > 0 ? ' with this FileName and MimeType' : ''}. Upload the file first and give its AssetId.`
            : `No uploaded file has these bytes${ref.FileName != null || ref.MimeType != null ? ', FileName and MimeType' : ''}. Upload the files before importing.`,
          Code: 'AssetNotFound',
        });
        return;
      }
      if (relations.some((r) => r.assetId === asset.id)) {
        problems.push({
          Field: `Assets.${i}`,
          Message: `The asset ${asset.id} is given twice. Give each image or file once.`,
        });
        return;
      }
      const isDefault = ref.IsDefault === true;
      if (isDefault && defaults.has(asset.family))
        problems.push({
          Field: `Assets.${i}.IsDefault`,
          Message: `This is a second default ${asset.family}. Mark one ${asset.family} as the default.`,
        });
      if (isDefault) defaults.add(asset.family);
      relations.push({ assetId: asset.id, kind: asset.family, isDefault });
    });
    return relations;
  }
}

/**
 * Adds relations in one statement; a relation already there stays as it is, and an entity that
 * has a default of a kind keeps it (the added one is not the default then). Of several defaults
 * of one entity and kind in `relations`, the first is. `fresh`: the entities were made in this
 * transaction and their relations were checked (new items), so nothing can be there already.
 */
export async function addRelations(
  sql: RawSql,
  tenantId: number,
  entity: keyof typeof TABLES,
  relations: AssetRelation[],
  fresh = false,
): Promise<void> {
  if (relations.length === 0) return;
  const { table, column } = TABLES[entity];
  const columns = [
    tenantId,
    relations.map((r) => r.entityId),
    relations.map((r) => r.assetId),
    relations.map((r) => r.kind),
  ];
  if (fresh) {
    await sql.query(
      `insert into ${table} (tenant_id, ${column}, asset_id, kind, is_default)
       select $1, e, a, k, d from unnest($2::bigint[], $3::bigint[], $4::text[], $5::boolean[]) as x(e, a, k, d)`,
      [...columns, relations.map((r) => r.isDefault)],
    );
    return;
  }
  const defaults = new Set<string>();
  const isDefault = relations.map((r) => {
    const key = `${r.entityId}:${r.kind}`;
    if (!r.isDefault || defaults.has(key)) return false;
    defaults.add(key);
    return true;
  });
  await sql.query(
    `insert into ${table} (tenant_id, ${column}, asset_id, kind, is_default)
     select $1, x.e, x.a, x.k,
            x.d and not exists (select from ${table} t
                                 where t.tenant_id = $1 and t.${column} = x.e and t.kind = x.k and t.is_default)
       from unnest($2::bigint[], $3::bigint[], $4::text[], $5::boolean[]) as x(e, a, k, d)
     on conflict do nothing`,
    [...columns, isDefault],
  );
}
