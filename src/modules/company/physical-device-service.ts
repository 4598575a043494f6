// Physical devices: client-named devices, each in one store or none. Identity tokens are bound
// to one (its `dev` claim); `find` is the live lookup behind them.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import { notFound } from '../../domain/domain-error.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import { duplicatePhysicalDevice, unknownStore } from './company-errors.ts';
import type { PhysicalDevice, PhysicalDeviceBody } from './company-schemas.ts';
import { lockedVersion, type Versioned } from './store-service.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';

const SELECT = `select p.id as "DeviceId", p.description as "Description", p.store_id as "StoreId",
    s.name as "StoreName", p.updated_at as version
  from physical_devices p
  left join stores s on s.tenant_id = p.tenant_id and s.id = p.store_id`;
type Row = PhysicalDevice & { version: Date };
const versioned = ({ version, ...value }: Row): Versioned<PhysicalDevice> => ({ value, version });

/** What analytics records about the device of an identity token. */
export interface DeviceStamp {
  PhysicalDeviceId: string;
  PhysicalDeviceDescription: string | null;
  StoreId: number | null;
  StoreName: string | null;
}

export class PhysicalDeviceService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: PhysicalDeviceBody): Promise<Versioned<PhysicalDevice>> {
    const storeId = body.StoreId ?? null;
    await translatingConstraints(
      () =>
        this.db.query(
          `insert into physical_devices (tenant_id, id, description, store_id) values ($1, $2, $3, $4)`,
          [tenantId, body.DeviceId, body.Description ?? null, storeId],
        ),
      {
        unique: () => duplicatePhysicalDevice(body.DeviceId),
        missingReference: () => unknownStore(storeId!),
      },
    );
    return this.get(tenantId, body.DeviceId);
  }

  async get(tenantId: number, id: string): Promise<Versioned<PhysicalDevice>> {
    const [row] = await this.db.query<Row>(`${SELECT} where p.tenant_id = $1 and p.id = $2`, [
      tenantId,
      id,
    ]);
    if (!row) throw notFound(`Physical device "${id}"`);
    return versioned(row);
  }

  /** hasStoreRelation: true only those in a store, false only those in none. */
  async list(
    tenantId: number,
    paging: Paging,
    hasStoreRelation: boolean | undefined,
  ): Promise<Page<PhysicalDevice>> {
    const filter =
      hasStoreRelation === undefined
        ? ''
        : hasStoreRelation
          ? 'and p.store_id is not null'
          : 'and p.store_id is null';
    const [rows, [total]] = await Promise.all([
      this.db.query<Row>(
        `${SELECT} where p.tenant_id = $1 ${filter} order by p.id offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        `select count(*)::int as n from physical_devices p where p.tenant_id = $1 ${filter}`,
        [tenantId],
      ),
    ]);
    return { Results: rows.map((row) => versioned(row).value), TotalCount: total?.n ?? 0 };
  }

  /** Replaces description and store (null or absent: no store). */
  async update(
    tenantId: number,
    id: string,
    body: PhysicalDeviceBody,
    checkVersion: (version: Date) => void,
  ): Promise<Versioned<PhysicalDevice>> {
    assertBodyIdMatches(body.DeviceId, id);
    const storeId = body.StoreId ?? null;
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          const what = `Physical device "${id}"`;
          await lockedVersion(sql, 'physical_devices', tenantId, id, what, checkVersion);
          await sql.query(
            `update physical_devices set description = $3, store_id = $4, updated_at = ${NEXT_UPDATED_AT}
              where tenant_id = $1 and id = $2`,
            [tenantId, id, body.Description ?? null, storeId],
          );
        }),
      { missingReference: () => unknownStore(storeId!) },
    );
    return this.get(tenantId, id);
  }

  /** Deletes the device with its logical devices; its identity tokens stop working at once. */
  async delete(tenantId: number, id: string, checkVersion: (version: Date) => void): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      const what = `Physical device "${id}"`;
      await lockedVersion(sql, 'physical_devices', tenantId, id, what, checkVersion);
      await sql.query('delete from physical_devices where tenant_id = $1 and id = $2', [
        tenantId,
        id,
      ]);
    });
  }

  /**
   * The device as it is now (a primary-key lookup on every identity-token request), with the
   * generation of its row: a device deleted and made again under the same id has another.
   */
  async find(
    tenantId: number,
    id: string,
  ): Promise<{ storeId: number | null; generation: string } | undefined> {
    const [row] = await this.db.prepared<{ storeId: number | null; generation: string }>(
      'company_physical_device',
      `select store_id as "storeId", generation::text as generation
         from physical_devices where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    return row;
  }

  /** The device and its store as analytics records them; undefined when it does not exist. */
  async stampOf(tenantId: number, id: string): Promise<DeviceStamp | undefined> {
    const [row] = await this.db.prepared<DeviceStamp>(
      'company_physical_device_stamp',
      `select p.id as "PhysicalDeviceId", p.description as "PhysicalDeviceDescription",
              p.store_id as "StoreId", s.name as "StoreName"
         from physical_devices p
         left join stores s on s.tenant_id = p.tenant_id and s.id = p.store_id
        where p.tenant_id = $1 and p.id = $2`,
      [tenantId, id],
    );
    return row;
  }
}
