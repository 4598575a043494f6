// One version of a resource as the change history kept it, and the resource's latest version:
// what a restore reads, in the restoring transaction, after it has locked the resource (so that
// no other change of it can come between the check of the latest version and the write).
import type { RawSql } from '../connection/database.ts';

/** An entry's action and the resource's state after it (for a delete, the state it was deleted in). */
export interface HistoryVersion {
  action: string;
  data: unknown;
}

/** The entry of `version` of a resource of the tenant, or undefined when it has none. */
export async function historyVersion(
  sql: RawSql,
  tenantId: number,
  resource: string,
  resourceId: string,
  version: number,
): Promise<HistoryVersion | undefined> {
  const [row] = await sql.query<{ action: string; data: string | null }>(
    `select action, data from change_history
      where tenant_id = $1 and resource = $2 and resource_id = $3 and version = $4
      order by id desc limit 1`,
    [tenantId, resource, resourceId, version],
  );
  return row && { action: row.action, data: row.data === null ? null : JSON.parse(row.data) };
}

/** The resource's latest version, or undefined when the history has no entry of it. */
export async function latestHistoryVersion(
  sql: RawSql,
  tenantId: number,
  resource: string,
  resourceId: string,
): Promise<number | undefined> {
  const [row] = await sql.query<{ version: number | null }>(
    `select max(version) as version from change_history
      where tenant_id = $1 and resource = $2 and resource_id = $3`,
    [tenantId, resource, resourceId],
  );
  return row?.version ?? undefined;
}
