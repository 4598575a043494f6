// Settles a chunk's records that are not items (Category, Brand, Tag, PriceType, AttributeType):
// each names a resource, which the chunk's references found (or created, with the record's
// descriptions, when the import creates what is missing). Such an import also adds what the
// record carries and the resource lacks: a description that is null, metadata keys it does not
// have, asset relations; it never changes what is there. Without createMissing a record only has
// to name a resource that exists. Each kind is written with one statement for the whole chunk.
import type { RawSql } from '../../../db/connection/database.ts';
import { addRelations, type AssetRelation } from './import-assets.ts';
import type { ChunkContext, ChunkRow } from './import-chunk.ts';
import type { ChunkReferences, Resolution } from './import-references.ts';
import type { ReferenceRecord } from './import-reference-schemas.ts';

export async function settleReferenceRecords(
  sql: RawSql,
  ctx: ChunkContext,
  refs: ChunkReferences,
  rows: ChunkRow[],
): Promise<void> {
  const wouldCreate = ctx.createMissing && ctx.mode === 'validate';
  const metadata: { category: number; key: string; value: string }[] = [];
  const descriptions = new Map<number, { short: string | null; long: string | null }>();
  const tagDescriptions = new Map<number, string>();
  const categoryAssets: AssetRelation[] = [];
  const brandAssets: AssetRelation[] = [];

  for (const row of rows) {
    const record = row.record as ReferenceRecord;
    const settle = (
      field: string,
      result: Resolution,
      settled: NonNullable<ChunkRow['settled']>['field'],
    ) => {
      if ('problem' in result) {
        row.problems.push({ Field: field, Message: result.problem });
        return undefined;
      }
      row.settled = { field: settled, id: result.id };
      return result.id;
    };
    switch (record.RecordType) {
      case 'Category': {
        const id = settle(
          'CategoryPath',
          refs.categoryPaths.resolve(record.CategoryPath, wouldCreate),
          'CategoryId',
        );
        const relations = refs.assets.resolve(record.Assets, row.problems);
        if (id === undefined || row.problems.length > 0) break;
        for (const pair of record.CategoryMetadata ?? [])
          metadata.push({ category: id, key: pair.Key, value: pair.Value });
        const known = descriptions.get(id) ?? { short: null, long: null };
        known.short ??= record.ShortDescription ?? null;
        known.long ??= record.LongDescription ?? null;
        descriptions.set(id, known);
        categoryAssets.push(...relations.map((r) => ({ ...r, entityId: id })));
        break;
      }
      case 'Brand': {
        const id = settle(
          'Brand',
          refs.brands.resolve({ name: record.Brand }, wouldCreate),
          'BrandId',
        );
        const relations = refs.assets.resolve(record.Assets, row.problems);
        if (id === undefined || row.problems.length > 0) break;
        brandAssets.push(...relations.map((r) => ({ ...r, entityId: id })));
        break;
      }
      case 'Tag': {
        const id = settle('Tag', refs.tags.resolve({ name: record.Tag }, wouldCreate), 'TagId');
        if (id !== undefined && record.Description != null && !tagDescriptions.has(id))
          tagDescriptions.set(id, record.Description);
        break;
      }
      case 'PriceType':
        settle(
          'PriceTypeSymbol',
          refs.priceTypes.resolve({ name: record.PriceTypeSymbol }, wouldCreate),
          'PriceTypeId',
        );
        break;
      case 'AttributeType':
        settle('TypeName', refs.types.resolve({ name: record.TypeName }, wouldCreate), 'TypeId');
        break;
    }
  }
  if (ctx.mode !== 'write' || !ctx.createMissing) return;

  const { tenantId } = ctx;
  const filled = [...descriptions].filter(([, d]) => d.short !== null || d.long !== null);
  if (filled.length > 0)
    await sql.query(
      `update categories c
          set short_description = coalesce(c.short_description, x.s),
              long_description = coalesce(c.long_description, x.l), version = c.version + 1
         from unnest($2::bigint[], $3::text[], $4::text[]) as x(id, s, l)
        where c.tenant_id = $1 and c.id = x.id
          and ((c.short_description is null and x.s is not null) or (c.long_description is null and x.l is not null))`,
      [
        tenantId,
        filled.map(([id]) => id),
        filled.map(([, d]) => d.short),
        filled.map(([, d]) => d.long),
      ],
    );
  if (metadata.length > 0)
    await sql.query(
      `insert into category_metadata (tenant_id, category_id, key, value)
       select $1, c, k, v from unnest($2::bigint[], $3::text[], $4::text[]) as x(c, k, v)
       on conflict do nothing`,
      [
        tenantId,
        metadata.map((m) => m.category),
        metadata.map((m) => m.key),
        metadata.map((m) => m.value),
      ],
    );
  if (tagDescriptions.size > 0)
    await sql.query(
      `update tags t set description = x.d, version = t.version + 1
         from unnest($2::bigint[], $3::text[]) as x(id, d)
        where t.tenant_id = $1 and t.id = x.id and t.description is null`,
      [tenantId, [...tagDescriptions.keys()], [...tagDescriptions.values()]],
    );
  await addRelations(sql, tenantId, 'categories', categoryAssets);
  await addRelations(sql, tenantId, 'brands', brandAssets);
}
