// Stores with their location, and the nearest store to a point (see geo.ts).
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { pagedList } from '../../db/queries/paged-list.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import { notFound } from '../../domain/domain-error.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import { storeHasDevices } from './company-errors.ts';
import type { Store, StoreBody } from './company-schemas.ts';

interface StoreRow {
  Id: number;
  Name: string;
  Description: string | null;
  Address: string | null;
  longitude: number;
  latitude: number;
  version: Date;
}

const COLUMNS = `id as "Id", name as "Name", description as "Description", address as "Address",
  longitude, latitude, updated_at as version`;
const toStore = (row: StoreRow): Store => ({
  Id: row.Id,
  Name: row.Name,
  Description: row.Description,
  Address: row.Address,
  Location: { Longitude: row.longitude, Latitude: row.latitude },
});

/** A point on the sphere of geo.ts as stores.point holds it (0080_company_store_points.sql). */
const POINT = (lat: string, lon: string) => `cube(array[
    6378168 * cos(radians(${lat})) * cos(radians(${lon})),
    6378168 * cos(radians(${lat})) * sin(radians(${lon})),
    6378168 * sin(radians(${lat}))])`;

/**
 * CTEs ending in `store`: the tenant's ($1) nearest store to latitude $2, longitude $3 within the
 * chord $4 (geo.ts), ties by lowest id; no row when none is in range. The GiST index answers the
 * nearest chord (KNN, `<->`, a few index pages); a second search of the same index, in the box
 * of that chord around the point, collects the stores at exactly that distance so that the
 * lowest id wins (`ORDER BY distance, id` would sort every store of the tenant instead). It
 * runs only when the nearest is in range, and behind `offset 0` so that the planner cannot turn
 * `min(id)` into a walk of the primary key filtered by distance (100k rows).
 */
export const NEAREST_STORE = `with center as materialized (select ${POINT('$2::float8', '$3::float8')} as p),
  nearest as materialized (
    select s.point <-> (select p from center) as d
      from stores s
     where s.tenant_id = $1
     order by s.point <-> (select p from center)
     limit 1),
  store as materialized (
    select min(tie.id) as id from (
      select s.id from stores s
       where s.tenant_id = $1
         and (select d from nearest) <= $4::float8
         and s.point <@ cube_enlarge((select p from center), (select d from nearest) * (1 + 1e-9) + 1e-3, 3)
         and s.point <-> (select p from center) <= (select d from nearest)
      offset 0) tie
    having count(*) > 0)`;

export interface Versioned<T> {
  value: T;
  version: Date;
}

/** Reads a row for update inside a transaction and lets the caller check its version. */
export async function lockedVersion(
  sql: RawSql,
  table: string,
  tenantId: number,
  id: number | string,
  what: string,
  checkVersion: (version: Date) => void,
): Promise<void> {
  const [row] = await sql.query<{ version: Date }>(
    `select updated_at as version from ${table} where tenant_id = $1 and id = $2 for update`,
    [tenantId, id],
  );
  if (!row) throw notFound(what);
  checkVersion(row.version);
}

export class StoreService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: StoreBody): Promise<Versioned<Store>> {
    const [row] = await this.db.query<StoreRow>(
      `insert into stores (tenant_id, name, description, address, longitude, latitude)
       values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
      [
        tenantId,
        body.Name,
        body.Description ?? null,
        body.Address ?? null,
        body.Location.Longitude,
        body.Location.Latitude,
      ],
    );
    return { value: toStore(row!), version: row!.version };
  }

  async get(tenantId: number, id: number): Promise<Versioned<Store>> {
    const [row] = await this.db.query<StoreRow>(
      `select ${COLUMNS} from stores where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Store ${id}`);
    return { value: toStore(row), version: row.version };
  }

  async list(tenantId: number, paging: Paging): Promise<Page<Store>> {
    const page = await pagedList<StoreRow>(this.db, 'stores', COLUMNS, tenantId, paging);
    return { Results: page.Results.map(toStore), TotalCount: page.TotalCount };
  }

  async update(
    tenantId: number,
    id: number,
    body: StoreBody,
    checkVersion: (version: Date) => void,
  ): Promise<Versioned<Store>> {
    assertBodyIdMatches(body.Id, id);
    return this.db.rawTransaction(async (sql) => {
      await lockedVersion(sql, 'stores', tenantId, id, `Store ${id}`, checkVersion);
      const [row] = await sql.query<StoreRow>(
        `update stores set name = $3, description = $4, address = $5, longitude = $6,
                latitude = $7, updated_at = ${NEXT_UPDATED_AT}
          where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
        [
          tenantId,
          id,
          body.Name,
          body.Description ?? null,
          body.Address ?? null,
          body.Location.Longitude,
          body.Location.Latitude,
        ],
      );
      return { value: toStore(row!), version: row!.version };
    });
  }

  /** 409 while physical devices are assigned to the store. */
  async delete(tenantId: number, id: number, checkVersion: (version: Date) => void): Promise<void> {
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await lockedVersion(sql, 'stores', tenantId, id, `Store ${id}`, checkVersion);
          const [inUse] = await sql.query(
            'select 1 from physical_devices where tenant_id = $1 and store_id = $2 limit 1',
            [tenantId, id],
          );
          if (inUse) throw storeHasDevices(id);
          await sql.query('delete from stores where tenant_id = $1 and id = $2', [tenantId, id]);
        }),
      { stillReferenced: () => storeHasDevices(id) },
    );
  }
}
