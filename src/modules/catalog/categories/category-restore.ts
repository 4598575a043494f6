// What a category's restore to a version of its history writes besides an update's fields: the
// metadata that version shows; and its refusal of a parent deleted since.
import type { RawSql } from '../../../db/connection/database.ts';
import { catalogErrors } from '../catalog-errors.ts';

/** 409 RestoreReferenceMissing when the version's parent no longer exists. */
export async function refuseMissingParent(
  sql: RawSql,
  tenantId: number,
  parentId: number | null,
): Promise<void> {
  if (parentId === null) return;
  const [parent] = await sql.query('select 1 from categories where tenant_id = $1 and id = $2', [
    tenantId,
    parentId,
  ]);
  if (!parent)
    throw catalogErrors.restoreReferenceMissing('ParentCategoryId', `category ${parentId}`);
}

/** Gives the category exactly `metadata`, as a version of its history shows it. */
export async function replaceMetadata(
  sql: RawSql,
  tenantId: number,
  id: number,
  metadata: { Key: string; Value: string }[],
): Promise<void> {
  await sql.query('delete from category_metadata where tenant_id = $1 and category_id = $2', [
    tenantId,
    id,
  ]);
  if (metadata.length === 0) return;
  await sql.query(
    `insert into category_metadata (tenant_id, category_id, key, value)
     select $1, $2, k, v from unnest($3::text[], $4::text[]) as m (k, v)`,
    [tenantId, id, metadata.map((m) => m.Key), metadata.map((m) => m.Value)],
  );
}
