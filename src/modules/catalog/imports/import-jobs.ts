// The import job's row in catalog_imports and its per-row results: creating, reading and
// cancelling a job, and the job as the API shows it (progress, speed, the results' URL).
import { currentChangeContext } from '../../../db/changes/change-context.ts';
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { conflict, notFound } from '../../../domain/domain-error.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import type {
  ErrorPolicy,
  ImportFormat,
  ImportJob,
  ImportQuery,
  ImportState,
} from './import-schemas.ts';

export const IMPORTS_PATH = '/private/catalog/imports';

export interface ImportRow {
  tenant_id: number;
  id: number;
  format: ImportFormat;
  error_policy: ErrorPolicy;
  create_missing: boolean;
  source_asset_id: number;
  source_bytes: string | number;
  state: ImportState;
  phase: 'Validating' | 'Writing';
  records_done: string | number;
  bytes_done: string | number;
  rows_written: string | number;
  rows_failed: string | number;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  /** Who started it: the actor (JSON) of the request that made the job; null when unknown. */
  started_by: string | null;
  now: Date | string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toJob(row: ImportRow): ImportJob {
  const bytes = Number(row.source_bytes);
  const records = Number(row.records_done);
  const end = row.finished_at ?? row.now;
  const seconds = row.started_at
    ? (new Date(end).getTime() - new Date(row.started_at).getTime()) / 1000
    : 0;
  const done = row.state === 'Succeeded';
  return {
    Id: row.id,
    State: row.state,
    Phase: row.phase,
    Format: row.format,
    ErrorPolicy: row.error_policy,
    CreateMissing: row.create_missing,
    SourceAssetId: row.source_asset_id,
    RowsRead: records,
    RowsWritten: Number(row.rows_written),
    RowsFailed: Number(row.rows_failed),
    Percentage: done
      ? 100
      : bytes > 0
        ? Math.round((Number(row.bytes_done) / bytes) * 10000) / 100
        : 0,
    RowsPerSecond: seconds > 0 ? Math.round((records / seconds) * 10) / 10 : 0,
    Error: row.error,
    ResultsUrl: `${IMPORTS_PATH}/${row.id}/results`,
    CreatedDate: iso(row.created_at)!,
    StartedDate: iso(row.started_at),
    FinishedDate: iso(row.finished_at),
  };
}

/** The actor of the work that creates the job (a request, the CLI), as the job will name it. */
function startedBy(): string | null {
  const actor = currentChangeContext()?.Actor;
  return actor === undefined ? null : JSON.stringify(actor);
}

/** A new job's settings and its file, already kept as an asset. */
export interface NewImport {
  query: ImportQuery;
  format: ImportFormat;
  sourceAssetId: number;
  sourceBytes: number;
}

export class ImportJobs {
  private readonly db: DatabaseHandle;

  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  /** Inserts a Queued job in the caller's transaction; RejectAll starts by validating. */
  async insert(sql: RawSql, tenantId: number, job: NewImport): Promise<ImportRow> {
    const policy = job.query.errorPolicy ?? 'RejectAll';
    const [row] = await sql.query<ImportRow>(
      `with changed as (insert into catalog_imports (tenant_id, format, error_policy, create_missing, source_asset_id, source_bytes, phase, started_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning *) select *, now() as now from changed`,
      [
        tenantId,
        job.format,
        policy,
        job.query.createMissing ?? false,
        job.sourceAssetId,
        job.sourceBytes,
        policy === 'RejectAll' ? 'Validating' : 'Writing',
        startedBy(),
      ],
    );
    return row!;
  }

  async get(tenantId: number, id: number): Promise<ImportJob> {
    const [row] = await this.db.query<ImportRow>(
      'select *, now() as now from catalog_imports where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    if (!row) throw notFound(`Import ${id}`);
    return toJob(row);
  }

  /** The tenant's imports, newest first. */
  async list(tenantId: number, paging: Paging): Promise<Page<ImportJob>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<ImportRow>(
        `select *, now() as now from catalog_imports where tenant_id = $1
          order by id desc offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from catalog_imports where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows.map(toJob), TotalCount: total?.n ?? 0 };
  }

  /** Cancels a Queued or Running import: no chunk commits after this one does. */
  async cancel(tenantId: number, id: number): Promise<ImportJob> {
    const [row] = await this.db.query<ImportRow>(
      `with changed as (update catalog_imports set state = 'Cancelled', finished_at = now(), lease_token = null, lease_until = null
        where tenant_id = $1 and id = $2 and state in ('Queued', 'Running') returning *) select *, now() as now from changed`,
      [tenantId, id],
    );
    if (row) return toJob(row);
    const current = await this.get(tenantId, id);
    throw conflict('ImportEnded', `Import ${id} has already ended (${current.State}).`);
  }

  /** The per-row results as JSONL, read a few chunks at a time. */
  async *results(tenantId: number, id: number): AsyncGenerator<string> {
    await this.get(tenantId, id);
    let after = 0;
    for (;;) {
      const rows = await this.db.query<{ first_record: string | number; body: string }>(
        `select first_record, body from catalog_import_results
          where tenant_id = $1 and import_id = $2 and first_record > $3 order by first_record limit 20`,
        [tenantId, id, after],
      );
      for (const row of rows) yield row.body;
      if (rows.length < 20) return;
      after = Number(rows.at(-1)!.first_record);
    }
  }
}
