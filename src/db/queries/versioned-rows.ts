// Fetching, updating and deleting one row of a tenant's table with a `version` column, as the
// small resources (brands, tags, price types …) all do: a write locks the row, checks If-Match
// against its version (row-version.ts) and moves the version on.
import type { DatabaseHandle, RawSql } from '../connection/database.ts';
import { lockForWrite, versioned, type Versioned } from './row-version.ts';

/** A tenant's table keyed by (tenant_id, id), the columns the API shows, and the 404 of an id. */
export interface VersionedTable {
  name: string;
  /** The select list of the API's shape (`id as "Id", …`), without the version. */
  columns: string;
  missing: (id: number) => Error;
}

/** One row and its version; the table's `missing` error when there is none. */
export async function fetchVersioned<T>(
  sql: RawSql,
  table: VersionedTable,
  tenantId: number,
  id: number,
): Promise<Versioned<T>> {
  const [row] = await sql.query<T & { version: number }>(
    `select ${table.columns}, version from ${table.name} where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  if (!row) throw table.missing(id);
  return versioned(row);
}

/**
 * Sets columns of one row after checking If-Match, and answers the row and its new version.
 * `assignments` numbers its parameters from $3 (`name = $3, description = $4`), `values` fills them.
 */
export function updateVersioned<T>(
  db: DatabaseHandle,
  table: VersionedTable,
  tenantId: number,
  id: number,
  assignments: string,
  values: unknown[],
  checkVersion: (version: number) => void,
): Promise<Versioned<T>> {
  return db.rawTransaction(async (sql) => {
    await lockForWrite(sql, table.name, tenantId, id, checkVersion, () => table.missing(id));
    const [row] = await sql.query<T & { version: number }>(
      `update ${table.name} set ${assignments}, version = version + 1
        where tenant_id = $1 and id = $2 returning ${table.columns}, version`,
      [tenantId, id, ...values],
    );
    return versioned(row!);
  });
}

/** Deletes one row after checking If-Match. */
export async function deleteVersioned(
  db: DatabaseHandle,
  table: VersionedTable,
  tenantId: number,
  id: number,
  checkVersion: (version: number) => void,
): Promise<void> {
  await db.rawTransaction(async (sql) => {
    await lockForWrite(sql, table.name, tenantId, id, checkVersion, () => table.missing(id));
    await sql.query(`delete from ${table.name} where tenant_id = $1 and id = $2`, [tenantId, id]);
  });
}
