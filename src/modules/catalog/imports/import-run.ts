// The run of an import: the file read as a stream from the record after the last committed one,
// settled in chunks of CHUNK_RECORDS records, each chunk's items, results and progress committed
// together under the job's lease. RejectAll validates the whole file first, then writes it.
import {
  withChangeContext,
  type ChangeActor,
  type ChangeContext,
} from '../../../db/changes/change-context.ts';
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { isDatabaseUnavailable } from '../../../db/connection/connection-loss.ts';
import { MAX_LISTED_ERRORS } from '../../../domain/bounded-validation.ts';
import { DomainError, type FieldError } from '../../../domain/domain-error.ts';
import type { BulkAssets } from '../catalog-assets.ts';
import { JobLease } from '../job-lease.ts';
import { settleChunk, type ChunkRow } from './import-chunk.ts';
import { refreshImportStatistics, statisticsDue } from './import-statistics.ts';
import { toJob, type ImportJobs, type ImportRow } from './import-jobs.ts';
import { checkRecord, type AnyRecord, type RecordProblems } from './import-record-check.ts';
import { ImportFileError, readRecords, type SourceRecord } from './import-records.ts';
import type { ImportJob } from './import-schemas.ts';

/** Records per transaction: large enough for set-based writes, small enough to keep locks short. */
export const CHUNK_RECORDS = 1000;

/** The import cannot go on: failed after validation (RejectAll), its lease lost, or stopping. */
class StopRun extends Error {
  readonly reason: 'lost' | 'stopping' | 'rejected';
  constructor(reason: 'lost' | 'stopping' | 'rejected', message: string = reason) {
    super(message);
    this.reason = reason;
  }
}

export interface ImportRunOptions {
  leaseSeconds: number;
  /** Longest record (a JSONL line, a CSV row): a longer one fails alone, unread. */
  maxRecordBytes: number;
  /** Awaited before each chunk commits (tests hold an import there to cancel it mid-run). */
  beforeChunk?: () => Promise<void>;
}

export class ImportRunner {
  private readonly db: DatabaseHandle;
  private readonly files: BulkAssets;
  private readonly jobs: ImportJobs;
  private readonly options: ImportRunOptions;
  private stopping = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(db: DatabaseHandle, files: BulkAssets, jobs: ImportJobs, options: ImportRunOptions) {
    this.db = db;
    this.files = files;
    this.jobs = jobs;
    this.options = options;
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
      if (onProgress) onProgress(await this.jobs.get(tenantId, id));
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
        `with changed as (update catalog_imports set phase = 'Writing', records_done = 0, lines_done = 0, bytes_done = 0, rows_failed = 0
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running' returning *) select *, now() as now from changed`,
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
      const settle = async (rows: ChunkRow[]) => {
        await this.options.beforeChunk?.();
        const next = await this.commit(current, lease, mode, rows);
        if (statisticsDue(Number(current.rows_written), Number(next.rows_written)))
          await refreshImportStatistics(this.db);
        current = next;
        onProgress?.(toJob(current));
      };
      for await (const source of records) {
        chunk.push(chunkRow(source));
        if (chunk.length < CHUNK_RECORDS) continue;
        await settle(chunk);
        chunk = [];
      }
      if (chunk.length > 0) await settle(chunk);
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
    return withChangeContext(importChangeContext(row), () =>
      this.writeChunk(row, lease, mode, chunk, last),
    );
  }

  private writeChunk(
    row: ImportRow,
    lease: JobLease,
    mode: 'validate' | 'write',
    chunk: ChunkRow[],
    last: SourceRecord,
  ): Promise<ImportRow> {
    return this.db.rawTransaction(async (sql) => {
      await settleChunk(
        sql,
        {
          tenantId: row.tenant_id,
          importId: row.id,
          createMissing: row.create_missing,
          mode,
          findAssets: (sql, tenantId, keys) => this.files.find(sql, tenantId, keys),
        },
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
        `with changed as (update catalog_imports
            set records_done = $4, lines_done = $5, bytes_done = $6, rows_written = rows_written + $7,
                rows_failed = rows_failed + $8, lease_until = now() + make_interval(secs => $9)
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running' returning *) select *, now() as now from changed`,
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

/**
 * Each record an import writes is a change the import job made, for whoever started it (the
 * change history names both), whatever request or worker happens to run the job.
 */
function importChangeContext(row: ImportRow): ChangeContext {
  const startedBy =
    row.started_by === null ? undefined : (JSON.parse(row.started_by) as ChangeActor);
  return {
    Actor: {
      Type: 'Job',
      Id: String(row.id),
      Name: 'catalog import',
      ...(startedBy !== undefined ? { OnBehalfOf: startedBy } : {}),
    },
    Operation: 'catalogImport',
  };
}

function chunkRow(source: SourceRecord): ChunkRow {
  if (source.problems) return { source, problems: source.problems };
  let checked: RecordProblems;
  try {
    checked = checkRecord(source.value!);
  } catch (error) {
    // Whatever a record holds (a value nested past the stack, say) fails that record alone.
    checked = {
      problems: [{ Field: '(line)', Message: `could not be checked: ${(error as Error).message}` }],
      omitted: 0,
    };
  }
  const { problems, omitted } = checked;
  return problems.length > 0
    ? { source, problems, ...(omitted > 0 ? { problemsOmitted: omitted } : {}) }
    : { source, record: source.value as AnyRecord, problems };
}

/** The item's SKU and Title as the record gives them (text only), so that a row can be named. */
function namesOf(source: SourceRecord): { SKU?: string; Title?: string } {
  const names: { SKU?: string; Title?: string } = {};
  const { SKU, Title } = source.value ?? {};
  if (typeof SKU === 'string' && SKU !== '') names.SKU = SKU.slice(0, RESULT_NAME_LENGTH);
  if (typeof Title === 'string' && Title !== '') names.Title = Title.slice(0, RESULT_NAME_LENGTH);
  return names;
}

/** A failed row's errors, at most MAX_LISTED_ERRORS of them, and how many more it had. */
function resultErrors(r: ChunkRow): { Errors: FieldError[]; ErrorsOmitted?: number } {
  const listed = r.problems.slice(0, MAX_LISTED_ERRORS);
  const omitted = (r.problemsOmitted ?? 0) + r.problems.length - listed.length;
  return omitted > 0 ? { Errors: listed, ErrorsOmitted: omitted } : { Errors: listed };
}

/** A result names its row by at most this many characters of its SKU and Title. */
const RESULT_NAME_LENGTH = 256;

async function saveResults(
  sql: RawSql,
  row: ImportRow,
  firstRecord: number,
  rows: ChunkRow[],
): Promise<void> {
  const lines = rows.map((r) => {
    const row = { Line: r.source.line, ...namesOf(r.source) };
    return JSON.stringify(
      r.problems.length > 0
        ? { ...row, Status: 'Failed', ...resultErrors(r) }
        : r.settled
          ? { ...row, Status: 'Written', [r.settled.field]: r.settled.id }
          : { ...row, Status: 'Written', ItemId: r.itemId },
    );
  });
  await sql.query(
    'insert into catalog_import_results (tenant_id, import_id, first_record, body) values ($1, $2, $3, $4)',
    [row.tenant_id, row.id, firstRecord, lines.join('\n') + '\n'],
  );
}
