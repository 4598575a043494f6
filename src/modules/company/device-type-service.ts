// Device types ({Id, Description}: "Kiosk", "InStore" …) that logical devices refer to.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { pagedList } from '../../db/queries/paged-list.ts';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import { notFound } from '../../domain/domain-error.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import { deviceTypeInUse } from './company-errors.ts';
import type { DeviceType, DeviceTypeBody } from './company-schemas.ts';
import { lockedVersion, type Versioned } from './store-service.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';

const COLUMNS = 'id as "Id", description as "Description"';
type Row = DeviceType & { version: Date };
const versioned = ({ version, ...value }: Row): Versioned<DeviceType> => ({ value, version });

export class DeviceTypeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: DeviceTypeBody): Promise<Versioned<DeviceType>> {
    const [row] = await this.db.query<Row>(
      `insert into device_types (tenant_id, description) values ($1, $2)
       returning ${COLUMNS}, updated_at as version`,
      [tenantId, body.Description],
    );
    return versioned(row!);
  }

  async get(tenantId: number, id: number): Promise<Versioned<DeviceType>> {
    const [row] = await this.db.query<Row>(
      `select ${COLUMNS}, updated_at as version from device_types where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Device type ${id}`);
    return versioned(row);
  }

  list(tenantId: number, paging: Paging): Promise<Page<DeviceType>> {
    return pagedList(this.db, 'device_types', COLUMNS, tenantId, paging);
  }

  async update(
    tenantId: number,
    id: number,
    body: DeviceTypeBody,
    checkVersion: (version: Date) => void,
  ): Promise<Versioned<DeviceType>> {
    assertBodyIdMatches(body.Id, id);
    return this.db.rawTransaction(async (sql) => {
      await lockedVersion(sql, 'device_types', tenantId, id, `Device type ${id}`, checkVersion);
      const [row] = await sql.query<Row>(
        `update device_types set description = $3, updated_at = ${NEXT_UPDATED_AT}
          where tenant_id = $1 and id = $2 returning ${COLUMNS}, updated_at as version`,
        [tenantId, id, body.Description],
      );
      return versioned(row!);
    });
  }

  /** 409 while logical devices have this type. */
  async delete(tenantId: number, id: number, checkVersion: (version: Date) => void): Promise<void> {
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await lockedVersion(sql, 'device_types', tenantId, id, `Device type ${id}`, checkVersion);
          await sql.query('delete from device_types where tenant_id = $1 and id = $2', [
            tenantId,
            id,
          ]);
        }),
      { stillReferenced: () => deviceTypeInUse(id) },
    );
  }
}
