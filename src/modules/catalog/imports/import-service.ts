// Catalog imports as the routes and the CLI see them: starting one (its file kept as an asset, its
// job row, its queued run), reading, cancelling and following it. The job rows are import-jobs.ts,
// the run itself import-run.ts, the formats import-formats.ts.
import type { Readable } from 'node:stream';
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import { DomainError } from '../../../domain/domain-error.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { BulkAssets } from '../catalog-assets.ts';
import { orphanedJobs } from '../job-lease.ts';
import { formatOfMimeType, formatRequired, MIME_TYPE_OF_FORMAT } from './import-formats.ts';
import { ImportJobs, toJob } from './import-jobs.ts';
import { ImportRunner } from './import-run.ts';
import type { ImportFormat, ImportJob, ImportQuery } from './import-schemas.ts';

export const IMPORT_QUEUE = 'catalog-import';

/** The source of a new import: the request body, or an asset uploaded before. */
export type ImportSource = { body: Readable; mimeType: string | undefined } | { assetId: number };

export interface ImportServiceOptions {
  leaseSeconds: number;
  maxBytes: number;
  /** Longest record (a JSONL line, a CSV row): a longer one fails alone, unread. */
  maxRecordBytes: number;
  /** Awaited before each chunk of an import commits (ImportRunOptions). */
  beforeChunk?: () => Promise<void>;
}

export class ImportService {
  private readonly db: DatabaseHandle;
  private readonly files: BulkAssets;
  private readonly queue: JobQueue;
  private readonly options: ImportServiceOptions;
  private readonly jobs: ImportJobs;
  private readonly runner: ImportRunner;

  constructor(
    db: DatabaseHandle,
    files: BulkAssets,
    queue: JobQueue,
    options: ImportServiceOptions,
  ) {
    this.db = db;
    this.files = files;
    this.queue = queue;
    this.options = options;
    this.jobs = new ImportJobs(db);
    this.runner = new ImportRunner(db, files, this.jobs, options);
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
        { fileName: `catalog-import.${format}`, mimeType: MIME_TYPE_OF_FORMAT[format] },
        source.body,
        this.options.maxBytes,
      );
      assetId = stored.id;
      size = stored.size;
    }
    return this.db.rawTransaction(async (sql) => {
      const row = await this.jobs.insert(sql, tenantId, {
        query,
        format,
        sourceAssetId: assetId,
        sourceBytes: size,
      });
      if (enqueue) await this.queue.send(IMPORT_QUEUE, { tenantId, importId: row.id }, {}, sql);
      return toJob(row);
    });
  }

  get(tenantId: number, id: number): Promise<ImportJob> {
    return this.jobs.get(tenantId, id);
  }

  /** The tenant's imports, newest first. */
  list(tenantId: number, paging: Paging): Promise<Page<ImportJob>> {
    return this.jobs.list(tenantId, paging);
  }

  /** Cancels a Queued or Running import: no chunk commits after this one does. */
  cancel(tenantId: number, id: number): Promise<ImportJob> {
    return this.jobs.cancel(tenantId, id);
  }

  /** The per-row results as JSONL, read a few chunks at a time. */
  results(tenantId: number, id: number): AsyncGenerator<string> {
    return this.jobs.results(tenantId, id);
  }

  /**
   * Runs an import to its end, or until cancelled or this server stops. Does nothing when another
   * worker holds the job's lease or the job has ended. `onProgress` sees the job after each chunk.
   */
  run(tenantId: number, id: number, onProgress?: (job: ImportJob) => void): Promise<void> {
    return this.runner.run(tenantId, id, onProgress);
  }

  /** Sends a job for every import whose worker died (its lease ran out). */
  async resumeOrphans(): Promise<void> {
    for (const job of await orphanedJobs(this.db, 'catalog_imports', this.options.leaseSeconds))
      await this.queue.send(IMPORT_QUEUE, { tenantId: job.tenantId, importId: job.id });
  }

  /** Stops running imports after their current chunk (the server is closing). */
  stop(): Promise<void> {
    return this.runner.stop();
  }
}
