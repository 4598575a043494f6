// A restore's reading of the change history: the version to restore, checked in the restoring
// transaction (after the resource is locked, so that no change comes between), and the change
// context that makes the write a restore: the history records its entry as `restored`, naming
// the version it came from (src/db/sql/025-change-history.sql).
import type { RawSql } from '../../../db/connection/database.ts';
import { currentChangeContext, withChangeContext } from '../../../db/changes/change-context.ts';
import {
  historyVersion,
  latestHistoryVersion,
} from '../../../db/changes/change-history-versions.ts';
import { catalogErrors } from '../catalog-errors.ts';

export interface RestoreRequest {
  tenantId: number;
  /** The history's resource kind: item, brand, category. */
  resource: string;
  id: number;
  /** "Item 12": how an error names it. */
  what: string;
  version: number;
  /** The caller's idea of the latest version (409 HistoryConflict when it is not). */
  expectedVersion: number | undefined;
}

/** Reads the version's data in the restoring transaction, or refuses the restore. */
export type VersionReader = (sql: RawSql) => Promise<unknown>;

/** Runs `write` (one transaction that calls the reader) as a restore of `request`'s version. */
export function restoring<T>(
  request: RestoreRequest,
  write: (versionOf: VersionReader) => Promise<T>,
): Promise<T> {
  const { tenantId, resource, id, version, expectedVersion } = request;
  const resourceId = String(id);
  const versionOf: VersionReader = async (sql) => {
    const entry = await historyVersion(sql, tenantId, resource, resourceId, version);
    if (!entry) throw catalogErrors.historyVersionNotFound(request.what, version);
    if (expectedVersion !== undefined) {
      const latest = await latestHistoryVersion(sql, tenantId, resource, resourceId);
      if (latest !== expectedVersion) throw catalogErrors.historyConflict(expectedVersion, latest);
    }
    if (entry.action === 'deleted' || entry.data === null)
      throw catalogErrors.deletedVersion(version);
    return entry.data;
  };
  const context = currentChangeContext() ?? { Actor: { Type: 'System' as const } };
  return withChangeContext(
    { ...context, Restore: { Resource: resource, ResourceId: resourceId, FromVersion: version } },
    () => write(versionOf),
  );
}
