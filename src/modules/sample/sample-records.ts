// The sample module's table (migration 0300): what the seeder made in each tenant.
import type { RawSql } from '../../db/connection/database.ts';

/** The kinds of resource the sample makes, in the order `remove` deletes them. */
export const SAMPLE_KINDS = [
  'analytics',
  'logical-device',
  'physical-device',
  'device-type',
  'store',
  'item',
  'category',
  'brand',
  'tag',
  'attribute-type',
  'price-type',
  'image',
  'import',
] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];

export interface SampleRecord {
  kind: SampleKind;
  resourceId: string;
  key: string | null;
}

export class SampleRecords {
  private readonly sql: RawSql;

  constructor(sql: RawSql) {
    this.sql = sql;
  }

  /** Records what was made; a resource recorded before keeps its first record. */
  async add(tenantId: number, records: readonly SampleRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.sql.query(
      `insert into sample_records (tenant_id, kind, resource_id, key)
       select $1, r.kind, r.resource_id, r.key
         from unnest($2::text[], $3::text[], $4::text[]) as r(kind, resource_id, key)
       on conflict do nothing`,
      [
        tenantId,
        records.map((r) => r.kind),
        records.map((r) => r.resourceId),
        records.map((r) => r.key),
      ],
    );
  }

  /** The records of one kind, oldest first. */
  async of(tenantId: number, kind: SampleKind): Promise<SampleRecord[]> {
    return this.sql.query<SampleRecord>(
      `select kind, resource_id as "resourceId", key from sample_records
        where tenant_id = $1 and kind = $2 order by created_at, resource_id`,
      [tenantId, kind],
    );
  }

  /** The keys recorded for a kind (items' SKUs, images' file names, stores' cities). */
  async keys(tenantId: number, kind: SampleKind): Promise<Map<string, string>> {
    const rows = await this.of(tenantId, kind);
    return new Map(rows.filter((r) => r.key !== null).map((r) => [r.key!, r.resourceId]));
  }

  async forget(tenantId: number, kind: SampleKind, resourceIds: readonly string[]): Promise<void> {
    if (resourceIds.length === 0) return;
    await this.sql.query(
      'delete from sample_records where tenant_id = $1 and kind = $2 and resource_id = any($3::text[])',
      [tenantId, kind, resourceIds],
    );
  }

  /** How many resources of each kind the tenant has from the sample. */
  async counts(tenantId: number): Promise<Partial<Record<SampleKind, number>>> {
    const rows = await this.sql.query<{ kind: SampleKind; n: number }>(
      'select kind, count(*)::int as n from sample_records where tenant_id = $1 group by kind',
      [tenantId],
    );
    return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
  }
}
