// Catalog imports: the job row, its creation (the file kept as an asset), progress, cancel, the
// per-row results, and the run itself: the file read as a stream, settled in chunks of
// CHUNK_RECORDS records, each chunk's items, results and progress committed together.
import type { Readable } from 'node:stream';
import type { DatabaseHandle, RawSql } from '../../../db/database.ts';
import { isDatabaseUnavailable } from '../../../db/connection-loss.ts';
import {
  DomainError,
  conflict,
  invalid,
  notFound,
  type FieldError,
} from '../../../domain/domain-error.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { CatalogFiles } from '../catalog-files.ts';
import { JobLease, orphanedJobs } from '../job-lease.ts';
import { settleChunk, type ChunkRow } from './import-chunk.ts';
import { checkRecord } from './import-record-check.ts';
import { ImportFileError, readRecords, type SourceRecord } from './import-records.ts';
import type {
  ErrorPolicy,
  ImportFormat,
  ImportJob,
  ImportQuery,
  ImportRecord,
  ImportState,
} from './import-schemas.ts';

export const IMPORT_QUEUE = 'catalog-import';
/** Records per transaction: large enough for set-based writes, small enough to keep locks short. */
export const CHUNK_RECORDS = 1000;
export const IMPORTS_PATH = '/private/catalog/imports';

interface ImportRow {
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
  now: Date | string;
}

const MIME_TYPES: Record<ImportFormat, string> = { jsonl: 'application/x-ndjson', csv: 'text/csv' };
const FORMAT_OF_MIME: Record<string, ImportFormat> = {
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/jsonlines': 'jsonl',
  'text/csv': 'csv',
};
export const IMPORT_MIME_TYPES = Object.keys(FORMAT_OF_MIME);
export const formatOfMimeType = (mimeType: string | undefined): ImportFormat | undefined =>
  mimeType ? FORMAT_OF_MIME[mimeType.split(';')[0]!.trim().toLowerCase()] : undefined;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toJob(row: ImportRow): ImportJob {
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

/** The source of a new import: the request body, or an asset uploaded before. */
export type ImportSource = { body: Readable; mimeType: string | undefined } | { assetId: number };

/** The import cannot go on: failed after validation (RejectAll), its lease lost, or stopping. */
class StopRun extends Error {
  readonly reason: 'lost' | 'stopping' | 'rejected';
  constructor(reason: 'lost' | 'stopping' | 'rejected', message: string = reason) {
    super(message);
    this.reason = reason;
  }
}

export interface ImportServiceOptions {
  leaseSeconds: number;
  maxBytes: number;
  /** Longest record (a JSONL line, a CSV row): a longer one fails alone, unread. */
  maxRecordBytes: number;
}

export class ImportService {
  private readonly db: DatabaseHandle;
  private readonly files: CatalogFiles;
  private readonly jobs: JobQueue;
  private readonly options: ImportServiceOptions;
  private stopping = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    db: DatabaseHandle,
    files: CatalogFiles,
    jobs: JobQueue,
    options: ImportServiceOptions,
  ) {
    this.db = db;
    this.files = files;
    this.jobs = jobs;
    this.options = options;
  }

  /**
   * Creates the job (202): a body is stored as an asset first, so that the job can read it again
   * after a restart. `enqueue: false` (the CLI) leaves running it to the caller.
   */
  async create(
    tenantId: number,
    baseUrl: string,
    query: ImportQuery,
    source: ImportSource,
    enqueue = true,
  ): Promise<ImportJob> {
    let assetId: number;
    let size: number;
    let format: ImportFormat | undefined = query.format;
    if ('assetId' in source) {
      const file = await this.files.open(tenantId, source.assetId);
      if (!file)
        throw new DomainError(
          'invalid',
          'ValidationFailed',
          `Asset ${source.assetId} does not exist.`,
          {
            errors: [{ Field: 'assetId', Message: `asset ${source.assetId} does not exist` }],
          },
        );
      format ??= formatOfMimeType(file.mimeType);
      if (!format) throw formatRequired();
      assetId = source.assetId;
      size = file.size;
    } else {
      format ??= formatOfMimeType(source.mimeType);
      if (!format) throw formatRequired();
      const stored = await this.files.store(
        tenantId,
        baseUrl,
        { fileName: `catalog-import.${format}`, mimeType: MIME_TYPES[format] },
        source.body,
        this.options.maxBytes,
      );
      assetId = stored.id;
      size = stored.size;
    }
    const policy = query.errorPolicy ?? 'RejectAll';
    return this.db.rawTransaction(async (sql) => {
      const [row] = await sql.query<ImportRow>(
        `insert into catalog_imports (tenant_id, format, error_policy, create_missing, source_asset_id, source_bytes, phase)
         values ($1, $2, $3, $4, $5, $6, $7) returning *, now() as now`,
        [
          tenantId,
          format,
          policy,
          query.createMissing ?? false,
          assetId,
          size,
          policy === 'RejectAll' ? 'Validating' : 'Writing',
        ],
      );
      if (enqueue) await this.jobs.send(IMPORT_QUEUE, { tenantId, importId: row!.id }, {}, sql);
      return toJob(row!);
    });
  }

  async get(tenantId: number, id: number): Promise<ImportJob> {
    const [row] = await this.db.query<ImportRow>(
      'select *, now() as now from catalog_imports where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    if (!row) throw notFound(`Import ${id}`);
    return toJob(row);
  }

  /** Cancels a Queued or Running import: no chunk commits after this one does. */
  async cancel(tenantId: number, id: number): Promise<ImportJob> {
    const [row] = await this.db.query<ImportRow>(
      `update catalog_imports set state = 'Cancelled', finished_at = now(), lease_token = null, lease_until = null
        where tenant_id = $1 and id = $2 and state in ('Queued', 'Running') returning *, now() as now`,
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

  /** Sends a job for every import whose worker died (its lease ran out). */
  async resumeOrphans(): Promise<void> {
    for (const job of await orphanedJobs(this.db, 'catalog_imports', this.options.leaseSeconds))
      await this.jobs.send(IMPORT_QUEUE, { tenantId: job.tenantId, importId: job.id });
  }

  /** Stops running imports after their current chunk (the server is closing). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.running]);
  }

  /**
   * Runs an import to its end, or until cancelled or this server stops. Does nothing when another
   * worker holds the job's lease or the job has ended. `onProgress` sees the job after each chunk.
   */
  async run(tenantId: number, id: number, onProgress?: (job: ImportJob) => void): Promise<void> {
    const done = this.runOnce(tenantId, id, onProgress);
    this.running.add(done);
    try {
      await done;
    } finally {
      this.running.delete(done);
    }
  }

  private async runOnce(
    tenantId: number,
    id: number,
    onProgress?: (job: ImportJob) => void,
  ): Promise<void> {
    const lease = new JobLease(this.db, 'catalog_imports', tenantId, id, this.options.leaseSeconds);
    let row = await lease.acquire<ImportRow>();
    if (!row) return;
    try {
      if (row.phase === 'Validating') {
        row = await this.pass(row, lease, 'validate', onProgress);
        if (Number(row.rows_failed) > 0) {
          await lease.finish(
            'Failed',
            `${row.rows_failed} records failed validation (see the results); nothing was written.`,
          );
          return;
        }
        row = await this.startWriting(row, lease);
      }
      row = await this.pass(row, lease, 'write', onProgress);
      await lease.finish('Succeeded');
    } catch (error) {
      if (error instanceof StopRun) {
        if (error.reason === 'stopping') await lease.release();
        else if (error.reason === 'rejected') await lease.finish('Failed', error.message);
        else lease.stop();
        return;
      }
      lease.stop();
      if (isDatabaseUnavailable(error)) throw error; // resumed once the lease runs out
      const message =
        error instanceof ImportFileError || error instanceof DomainError
          ? error.message
          : `The import stopped on an unexpected error: ${(error as Error).message}`;
      await lease.finish('Failed', message);
    } finally {
      lease.stop();
      if (onProgress) onProgress(await this.get(tenantId, id));
    }
  }

  /** RejectAll: every record passed validation; the write pass starts from the top. */
  private async startWriting(row: ImportRow, lease: JobLease): Promise<ImportRow> {
    return this.db.rawTransaction(async (sql) => {
      await sql.query('delete from catalog_import_skus where tenant_id = $1 and import_id = $2', [
        row.tenant_id,
        row.id,
      ]);
      const [next] = await sql.query<ImportRow>(
        `update catalog_imports set phase = 'Writing', records_done = 0, lines_done = 0, bytes_done = 0, rows_failed = 0
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running' returning *, now() as now`,
        [row.tenant_id, row.id, lease.token],
      );
      if (!next) throw new StopRun('lost');
      return next;
    });
  }

  /** Reads the file from the record after the last committed one and settles it chunk by chunk. */
  private async pass(
    row: ImportRow,
    lease: JobLease,
    mode: 'validate' | 'write',
    onProgress?: (job: ImportJob) => void,
  ): Promise<ImportRow> {
    const file = await this.files.open(row.tenant_id, row.source_asset_id);
    if (!file) throw new ImportFileError(`The source asset ${row.source_asset_id} was deleted.`);
    const stream = await file.read();
    try {
      let chunk: ChunkRow[] = [];
      let current = row;
      const records = readRecords(
        row.format,
        stream,
        Number(row.records_done),
        this.options.maxRecordBytes,
      );
      for await (const source of records) {
        chunk.push(chunkRow(source));
        if (chunk.length < CHUNK_RECORDS) continue;
        current = await this.commit(current, lease, mode, chunk);
        chunk = [];
        onProgress?.(toJob(current));
      }
      if (chunk.length > 0) {
        current = await this.commit(current, lease, mode, chunk);
        onProgress?.(toJob(current));
      }
      return current;
    } finally {
      stream.destroy();
    }
  }

  private async commit(
    row: ImportRow,
    lease: JobLease,
    mode: 'validate' | 'write',
    chunk: ChunkRow[],
  ): Promise<ImportRow> {
    if (this.stopping) throw new StopRun('stopping');
    if (lease.lost) throw new StopRun('lost');
    const last = chunk.at(-1)!.source;
    return this.db.rawTransaction(async (sql) => {
      await settleChunk(
        sql,
        { tenantId: row.tenant_id, importId: row.id, createMissing: row.create_missing, mode },
        chunk,
      );
      const failed = chunk.filter((r) => r.problems.length > 0);
      if (mode === 'write' && row.error_policy === 'RejectAll' && failed.length > 0) {
        const first = failed[0]!;
        throw new StopRun(
          'rejected',
          `Line ${first.source.line} failed after validation (${first.problems.map((p) => `${p.Field}: ${p.Message}`).join('; ')}), ` +
            `the catalog changed meanwhile; the ${row.rows_written} records before this chunk were written.`,
        );
      }
      const reported = mode === 'validate' ? failed : chunk;
      if (reported.length > 0) await saveResults(sql, row, chunk[0]!.source.index, reported);
      const [next] = await sql.query<ImportRow>(
        `update catalog_imports
            set records_done = $4, lines_done = $5, bytes_done = $6, rows_written = rows_written + $7,
                rows_failed = rows_failed + $8, lease_until = now() + make_interval(secs => $9)
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running'
          returning *, now() as now`,
        [
          row.tenant_id,
          row.id,
          lease.token,
          last.index,
          last.line,
          last.bytes,
          mode === 'write' ? chunk.length - failed.length : 0,
          failed.length,
          lease.seconds,
        ],
      );
      // Cancelled, or taken over by another instance: nothing of this chunk is kept.
      if (!next) throw new StopRun('lost');
      return next;
    });
  }
}

const formatRequired = () =>
  invalid(
    'ImportFormatRequired',
    `Give format=jsonl or format=csv, or send the body as ${IMPORT_MIME_TYPES.join(', ')}.`,
    [{ Field: 'format', Message: 'is required for this content type' }],
  );

function chunkRow(source: SourceRecord): ChunkRow {
  if (source.problems) return { source, problems: source.problems };
  let problems: FieldError[];
  try {
    problems = checkRecord(source.value!);
  } catch (error) {
    // Whatever a record holds (a value nested past the stack, say) fails that record alone.
    problems = [{ Field: '(line)', Message: `could not be checked: ${(error as Error).message}` }];
  }
  return problems.length > 0
    ? { source, problems }
    : { source, record: source.value as ImportRecord, problems };
}

async function saveResults(
  sql: RawSql,
  row: ImportRow,
  firstRecord: number,
  rows: ChunkRow[],
): Promise<void> {
  const lines = rows.map((r) =>
    JSON.stringify(
      r.problems.length > 0
        ? { Line: r.source.line, Status: 'Failed', Errors: r.problems }
        : { Line: r.source.line, Status: 'Written', ItemId: r.itemId },
    ),
  );
  await sql.query(
    'insert into catalog_import_results (tenant_id, import_id, first_record, body) values ($1, $2, $3, $4)',
    [row.tenant_id, row.id, firstRecord, lines.join('\n') + '\n'],
  );
}
