// Rows with a `version` column (the ETag of contract §4): locking one for a write and reading
// its version in the same statement, so that If-Match is checked against what the write changes.
import type { RawSql } from '../connection/database.ts';

/**
 * The next `updated_at` of a row versioned by it: now, or a millisecond after the last one when
 * the clock has not moved on (so that every write changes the version). Written with add_seconds
 * (src/db/sql/030-time-arithmetic.sql), which Citus runs in an update's SET.
 */
export const NEXT_UPDATED_AT = 'greatest(now(), add_seconds(updated_at, 0.001))';

/** Locks one row of a tenant's table and answers its version, or undefined when there is none. */
export async function lockedVersion(
  sql: RawSql,
  table: string,
  tenantId: number,
  id: number,
): Promise<number | undefined> {
  const [row] = await sql.query<{ version: number }>(
    `select version from ${table} where tenant_id = $1 and id = $2 for update`,
    [tenantId, id],
  );
  return row?.version;
}

/**
 * Locks a row for a write after checking If-Match against its version (`checkVersion` throws
 * 412); `missing` is the error when the row does not exist.
 */
export async function lockForWrite(
  sql: RawSql,
  table: string,
  tenantId: number,
  id: number,
  checkVersion: (version: number) => void,
  missing: () => Error,
): Promise<void> {
  const version = await lockedVersion(sql, table, tenantId, id);
  if (version === undefined) throw missing();
  checkVersion(version);
}

/** A row as the API shows it, and its version. */
export interface Versioned<T> {
  value: T;
  version: number;
}

/** Splits the `version` column off a selected row. */
export function versioned<T>(row: T & { version: number }): Versioned<T> {
  const { version, ...value } = row;
  return { value: value as T, version };
}
