// Logical devices: what runs on a physical device (an app instance, a screen …), with a type,
// an optional expiration date and metadata pairs. Both the management routes (any physical
// device) and the device-facing ones (the caller's physical device) come through here.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import { notFound } from '../../domain/domain-error.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import {
  duplicateLogicalDevice,
  duplicateMetadataKey,
  unknownDeviceType,
} from './company-errors.ts';
import type {
  LogicalDevice,
  LogicalDeviceBody,
  LogicalDeviceFilter,
  LogicalDevicePatch,
  MetadataPair,
} from './company-schemas.ts';
import { chordForKm } from './geo.ts';
import {
  checkExpiration,
  checkMetadata,
  DEVICE_JSON,
  filters,
  metadataOf,
  NOT_EXPIRED,
  SELECT,
  toDevice,
  versioned,
  type LogicalDeviceRow,
} from './logical-device-rows.ts';
import { lockedVersion, NEAREST_STORE, type Versioned } from './store-service.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';

export class LogicalDeviceService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  /** Registers a logical device to a physical device (404 when that does not exist). */
  async create(
    tenantId: number,
    physicalDeviceId: string,
    body: LogicalDeviceBody,
  ): Promise<Versioned<LogicalDevice>> {
    checkMetadata(body.Metadata);
    const expiration = checkExpiration(body.ExpirationDate);
    await this.requirePhysical(this.db, tenantId, physicalDeviceId);
    const typeId = body.DeviceTypeId ?? null;
    await translatingConstraints(
      () =>
        this.db.query(
          `insert into logical_devices
             (tenant_id, id, physical_device_id, description, device_type_id, expiration_date, metadata)
           values ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
          [
            tenantId,
            body.DeviceId,
            physicalDeviceId,
            body.Description,
            typeId,
            expiration,
            JSON.stringify(body.Metadata ?? []),
          ],
        ),
      {
        unique: () => duplicateLogicalDevice(body.DeviceId),
        missingReference: (violation) =>
          violation.constraint?.includes('physical_device') || typeId === null
            ? notFound(`Physical device "${physicalDeviceId}"`)
            : unknownDeviceType(typeId),
      },
    );
    return this.get(tenantId, physicalDeviceId, body.DeviceId);
  }

  async get(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
  ): Promise<Versioned<LogicalDevice>> {
    const [row] = await this.db.query<LogicalDeviceRow>(
      `${SELECT} where l.tenant_id = $1 and l.physical_device_id = $2 and l.id = $3`,
      [tenantId, physicalDeviceId, id],
    );
    if (!row) throw notFound(`Logical device "${id}" of physical device "${physicalDeviceId}"`);
    return versioned(row);
  }

  /** Every logical device of a physical device, expired ones too (management). */
  async listOfPhysical(
    tenantId: number,
    physicalDeviceId: string,
    paging: Paging,
  ): Promise<Page<LogicalDevice>> {
    await this.requirePhysical(this.db, tenantId, physicalDeviceId);
    const [rows, [total]] = await Promise.all([
      this.db.query<LogicalDeviceRow>(
        `${SELECT} where l.tenant_id = $1 and l.physical_device_id = $2
          order by l.id offset $3 limit $4`,
        [tenantId, physicalDeviceId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from logical_devices where tenant_id = $1 and physical_device_id = $2',
        [tenantId, physicalDeviceId],
      ),
    ]);
    return { Results: rows.map((row) => toDevice(row)), TotalCount: total?.n ?? 0 };
  }

  /** The unexpired logical devices of the physical devices of a store, filtered. */
  async listOfStore(
    tenantId: number,
    storeId: number,
    filter: LogicalDeviceFilter,
  ): Promise<LogicalDevice[]> {
    const rows = await this.db.prepared<LogicalDeviceRow>(
      'company_store_logical_devices',
      `${SELECT}
         join physical_devices p on p.tenant_id = l.tenant_id and p.id = l.physical_device_id
        where p.tenant_id = $1 and p.store_id = $2 and l.tenant_id = $1 and ${NOT_EXPIRED}
          and ${filters(3)}
        order by l.id`,
      [
        tenantId,
        storeId,
        filter.deviceTypeId ?? null,
        filter.metadataKey ?? null,
        filter.metadataValue ?? null,
      ],
    );
    return rows.map((row) => toDevice(row, filter.includeMetadata));
  }

  /**
   * The unexpired logical devices of the store nearest to a point within `km`, filtered, as the
   * JSON text of the `{"Data": […]}` answer, in one statement; undefined when no store is in
   * range. The hottest device-facing read: PostgreSQL builds the answer (as `toDevice` shapes
   * it) so that Node neither parses rows and dates nor serialises them again.
   */
  async nearestStoreJson(
    tenantId: number,
    point: { longitude: number; latitude: number },
    km: number,
    filter: LogicalDeviceFilter,
  ): Promise<string | undefined> {
    const [row] = await this.db.prepared<{ json: string }>(
      'company_nearest_store_logical_devices_json',
      `${NEAREST_STORE}
       select '{"Data":[' || coalesce((
           select string_agg(${DEVICE_JSON}, ',' order by l.id)
             from physical_devices p
             join logical_devices l on l.tenant_id = p.tenant_id and l.physical_device_id = p.id
             left join device_types t on t.tenant_id = l.tenant_id and t.id = l.device_type_id
            where p.tenant_id = $1 and p.store_id = st.id and ${NOT_EXPIRED} and ${filters(5)}
         ), '') || ']}' as json
         from store st`,
      [
        tenantId,
        point.latitude,
        point.longitude,
        chordForKm(km),
        filter.deviceTypeId ?? null,
        filter.metadataKey ?? null,
        filter.metadataValue ?? null,
        filter.includeMetadata === true,
      ],
    );
    return row?.json;
  }

  /**
   * PATCH semantics: the fields present are changed (null clears DeviceTypeId, ExpirationDate);
   * Metadata, when present, replaces the whole list.
   */
  async patch(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    patch: LogicalDevicePatch,
    checkVersion: (version: Date) => void,
  ): Promise<Versioned<LogicalDevice>> {
    assertBodyIdMatches(patch.DeviceId, id);
    checkMetadata(patch.Metadata);
    const typeId = patch.DeviceTypeId ?? null;
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          const current = await this.lockDevice(sql, tenantId, physicalDeviceId, id, checkVersion);
          const expiration = checkExpiration(patch.ExpirationDate, current.expiration);
          await sql.query(
            `update logical_devices set
                description = coalesce($3, description),
                device_type_id = case when $4::bool then $5::bigint else device_type_id end,
                expiration_date = case when $6::bool then $7::timestamptz else expiration_date end,
                metadata = coalesce($8::jsonb, metadata),
                updated_at = ${NEXT_UPDATED_AT}
              where tenant_id = $1 and id = $2`,
            [
              tenantId,
              id,
              patch.Description ?? null,
              patch.DeviceTypeId !== undefined,
              typeId,
              patch.ExpirationDate !== undefined,
              expiration,
              patch.Metadata ? JSON.stringify(patch.Metadata) : null,
            ],
          );
        }),
      { missingReference: () => unknownDeviceType(typeId!) },
    );
    return this.get(tenantId, physicalDeviceId, id);
  }

  async delete(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    checkVersion: (version: Date) => void,
  ): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      await this.lockDevice(sql, tenantId, physicalDeviceId, id, checkVersion);
      await sql.query('delete from logical_devices where tenant_id = $1 and id = $2', [
        tenantId,
        id,
      ]);
    });
  }

  async listMetadata(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
  ): Promise<MetadataPair[]> {
    return (await this.get(tenantId, physicalDeviceId, id)).value.Metadata ?? [];
  }

  /** Adds one pair; 409 when the key exists. */
  async addMetadata(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    pair: MetadataPair,
  ): Promise<MetadataPair> {
    await this.db.rawTransaction(async (sql) => {
      const metadata = await this.lockMetadata(sql, tenantId, physicalDeviceId, id);
      if (metadata.some((m) => m.Key === pair.Key)) throw duplicateMetadataKey(pair.Key);
      await this.saveMetadata(sql, tenantId, id, [...metadata, pair]);
    });
    return pair;
  }

  /** Changes the value of one key; 404 when the key is not there. */
  async updateMetadata(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    key: string,
    value: string,
  ): Promise<MetadataPair> {
    await this.db.rawTransaction(async (sql) => {
      const metadata = await this.lockMetadata(sql, tenantId, physicalDeviceId, id);
      if (!metadata.some((m) => m.Key === key)) throw notFound(`Metadata key "${key}"`);
      const next = metadata.map((m) => (m.Key === key ? { Key: key, Value: value } : m));
      await this.saveMetadata(sql, tenantId, id, next);
    });
    return { Key: key, Value: value };
  }

  /** Removes one key (404 when it is not there), or every key when `key` is undefined. */
  async deleteMetadata(
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    key: string | undefined,
  ): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      const metadata = await this.lockMetadata(sql, tenantId, physicalDeviceId, id);
      if (key !== undefined && !metadata.some((m) => m.Key === key))
        throw notFound(`Metadata key "${key}"`);
      const next = key === undefined ? [] : metadata.filter((m) => m.Key !== key);
      await this.saveMetadata(sql, tenantId, id, next);
    });
  }

  private async requirePhysical(sql: RawSql, tenantId: number, physicalDeviceId: string) {
    const [row] = await sql.query(
      'select 1 from physical_devices where tenant_id = $1 and id = $2',
      [tenantId, physicalDeviceId],
    );
    if (!row) throw notFound(`Physical device "${physicalDeviceId}"`);
  }

  private async lockDevice(
    sql: RawSql,
    tenantId: number,
    physicalDeviceId: string,
    id: string,
    checkVersion: (version: Date) => void,
  ): Promise<{ expiration: Date | null }> {
    const [row] = await sql.query<{ physical: string; expiration: Date | string | null }>(
      `select physical_device_id as physical, expiration_date as expiration
         from logical_devices where tenant_id = $1 and id = $2 for update`,
      [tenantId, id],
    );
    if (!row || row.physical !== physicalDeviceId)
      throw notFound(`Logical device "${id}" of physical device "${physicalDeviceId}"`);
    await lockedVersion(
      sql,
      'logical_devices',
      tenantId,
      id,
      `Logical device "${id}"`,
      checkVersion,
    );
    return { expiration: row.expiration === null ? null : new Date(row.expiration) };
  }

  private async lockMetadata(
    sql: RawSql,
    tenantId: number,
    physicalDeviceId: string,
    id: string,
  ): Promise<MetadataPair[]> {
    const [row] = await sql.query<{ metadata: MetadataPair[] | string }>(
      `select metadata from logical_devices
        where tenant_id = $1 and physical_device_id = $2 and id = $3 for update`,
      [tenantId, physicalDeviceId, id],
    );
    if (!row) throw notFound(`Logical device "${id}" of physical device "${physicalDeviceId}"`);
    return metadataOf(row.metadata);
  }

  private async saveMetadata(sql: RawSql, tenantId: number, id: string, metadata: MetadataPair[]) {
    await sql.query(
      `update logical_devices set metadata = $3::jsonb, updated_at = ${NEXT_UPDATED_AT}
        where tenant_id = $1 and id = $2`,
      [tenantId, id, JSON.stringify(metadata)],
    );
  }
}
