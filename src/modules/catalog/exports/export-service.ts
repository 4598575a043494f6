// Catalog exports: the matching items written as JSONL or CSV to a temporary file, then stored as
// an asset of the tenant. The job is not resumed part-way: a run that dies leaves no asset, and
// the next run (another instance, once the lease runs out) writes the whole file again.
import { TEXT_QUERY } from '../search/search-filters-sql.ts';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import { isDatabaseUnavailable } from '../../../db/connection/connection-loss.ts';
import { DomainError, notFound } from '../../../domain/domain-error.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { BulkAssets } from '../catalog-assets.ts';
import { catalogErrors } from '../catalog-errors.ts';
import { JobLease, orphanedJobs } from '../job-lease.ts';
import { queryWords } from '../search/search-service.ts';
import { csvRow, EXPORT_CSV_COLUMNS, exportRecord } from './export-records.ts';
import type { ExportBody, ExportJob } from './export-schemas.ts';
import type { ReferenceRecord } from '../imports/import-reference-schemas.ts';
import type { ImportRecord } from '../imports/import-schemas.ts';
import { ExportReferences } from './export-references.ts';
import { subtreeSql } from '../categories/category-depth.ts';

export const EXPORT_QUEUE = 'catalog-export';
export const EXPORTS_PATH = '/private/catalog/exports';
const PAGE = 1000;

interface ExportRow {
  tenant_id: number;
  id: number;
  format: 'jsonl' | 'csv';
  filter: ExportBody;
  base_url: string;
  state: ExportJob['State'];
  items_written: string | number;
  asset_id: number | null;
  asset_url: string | null;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toJob(row: ExportRow): ExportJob {
  return {
    Id: row.id,
    State: row.state,
    Format: row.format,
    ItemsWritten: Number(row.items_written),
    AssetId: row.asset_id,
    AssetUrl: row.asset_url,
    Error: row.error,
    CreatedDate: iso(row.created_at)!,
    StartedDate: iso(row.started_at),
    FinishedDate: iso(row.finished_at),
  };
}

export class ExportService {
  private readonly db: DatabaseHandle;
  private readonly files: BulkAssets;
  private readonly jobs: JobQueue;
  private readonly leaseSeconds: number;

  constructor(db: DatabaseHandle, files: BulkAssets, jobs: JobQueue, leaseSeconds: number) {
    this.db = db;
    this.files = files;
    this.jobs = jobs;
    this.leaseSeconds = leaseSeconds;
  }

  async create(tenantId: number, baseUrl: string, body: ExportBody): Promise<ExportJob> {
    const [refs] = await this.db.query<{ category: boolean; brand: boolean; tag: boolean }>(
      `select ($2::bigint is null or exists (select 1 from categories where tenant_id = $1 and id = $2)) as category,
              ($3::bigint is null or exists (select 1 from brands where tenant_id = $1 and id = $3)) as brand,
              ($4::bigint is null or exists (select 1 from tags where tenant_id = $1 and id = $4)) as tag`,
      [tenantId, body.CategoryId ?? null, body.BrandId ?? null, body.TagId ?? null],
    );
    if (!refs!.category)
      throw catalogErrors.unknownReference('CategoryId', `category ${body.CategoryId}`);
    if (!refs!.brand) throw catalogErrors.unknownReference('BrandId', `brand ${body.BrandId}`);
    if (!refs!.tag) throw catalogErrors.unknownReference('TagId', `tag ${body.TagId}`);
    return this.db.rawTransaction(async (sql) => {
      const [row] = await sql.query<ExportRow>(
        `insert into catalog_exports (tenant_id, format, filter, base_url) values ($1, $2, $3, $4) returning *`,
        [tenantId, body.Format ?? 'jsonl', JSON.stringify(body), baseUrl],
      );
      await this.jobs.send(EXPORT_QUEUE, { tenantId, exportId: row!.id }, {}, sql);
      return toJob(row!);
    });
  }

  async get(tenantId: number, id: number): Promise<ExportJob> {
    const [row] = await this.db.query<ExportRow>(
      'select * from catalog_exports where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    if (!row) throw notFound(`Export ${id}`);
    return toJob(row);
  }

  /** The tenant's exports, newest first. */
  async list(tenantId: number, paging: Paging): Promise<Page<ExportJob>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<ExportRow>(
        `select * from catalog_exports where tenant_id = $1 order by id desc offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from catalog_exports where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows.map(toJob), TotalCount: total?.n ?? 0 };
  }

  async resumeOrphans(): Promise<void> {
    for (const job of await orphanedJobs(this.db, 'catalog_exports', this.leaseSeconds))
      await this.jobs.send(EXPORT_QUEUE, { tenantId: job.tenantId, exportId: job.id });
  }

  async run(tenantId: number, id: number): Promise<void> {
    const lease = new JobLease(this.db, 'catalog_exports', tenantId, id, this.leaseSeconds);
    const row = await lease.acquire<ExportRow>();
    if (!row) return;
    const directory = await mkdtemp(path.join(tmpdir(), 'omni-export-'));
    try {
      const file = path.join(directory, `export.${row.format}`);
      let written = 0;
      const records = this.records(row, () => written++, lease);
      if (row.format === 'jsonl')
        await pipeline(
          Readable.from(records),
          new Transform({
            writableObjectMode: true,
            transform: (record, _encoding, done) => done(null, JSON.stringify(record) + '\n'),
          }),
          createWriteStream(file),
        );
      else
        await pipeline(
          Readable.from(records),
          new Transform({
            objectMode: true,
            transform: (record: ImportRecord | ReferenceRecord, _encoding, done) =>
              done(null, csvRow(record)),
          }),
          // An empty text is written "" and an absent value as an empty cell (docs/api.md).
          stringify({ header: true, columns: [...EXPORT_CSV_COLUMNS], quoted_match: /^$/ }),
          createWriteStream(file),
        );
      // Nothing to export (an empty catalog, or no item matches) is a success without a file: an
      // asset has at least one byte, and an empty JSONL file has none.
      const stored =
        (await stat(file)).size === 0
          ? { id: null, url: null }
          : await this.files.store(
              tenantId,
              row.base_url,
              {
                fileName: `catalog-export-${id}.${row.format}`,
                mimeType: row.format === 'jsonl' ? 'application/x-ndjson' : 'text/csv',
              },
              createReadStream(file),
              Number.MAX_SAFE_INTEGER,
            );
      lease.stop();
      await this.db.query(
        `update catalog_exports set state = 'Succeeded', items_written = $4, asset_id = $5, asset_url = $6,
                finished_at = now(), lease_token = null, lease_until = null
          where tenant_id = $1 and id = $2 and lease_token = $3 and state = 'Running'`,
        [tenantId, id, lease.token, written, stored.id, stored.url],
      );
    } catch (error) {
      lease.stop();
      if (isDatabaseUnavailable(error)) throw error;
      const message = error instanceof DomainError ? error.message : (error as Error).message;
      await lease.finish('Failed', `The export failed: ${message}`);
    } finally {
      lease.stop();
      await rm(directory, { recursive: true, force: true });
    }
  }

  /**
   * The file's records: the catalog's other records first (ExportReferences), then the matching
   * items: their ids first (in an order that puts each variant group's default item before its
   * variants), then their documents a page at a time.
   */
  private async *records(row: ExportRow, count: () => void, lease: JobLease) {
    const f = row.filter;
    const params: unknown[] = [row.tenant_id];
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['i.tenant_id = $1'];
    if (f.IncludePassiveItems === false) where.push('i.item_status_id = 1');
    const words = f.Query == null ? [] : queryWords(f.Query);
    if (f.Query != null && f.Query.trim() !== '') {
      // The text query by a statement of its own, as the search builds it (TEXT_QUERY).
      const [text] =
        words.length === 0
          ? []
          : await this.db.query<{ q: string | null }>(TEXT_QUERY, [
              row.tenant_id,
              words,
              false,
              false,
            ]);
      where.push(
        text === undefined
          ? 'false'
          : `i.id in (select r.item_id from item_search_rows r where r.tenant_id = $1
               and r.search_vector @@ ${bind(text.q)}::tsquery)`,
      );
    }
    if (f.CategoryId != null) where.push(`i.category_id in (${subtreeSql(bind(f.CategoryId))})`);
    if (f.BrandId != null) where.push(`i.brand_id = ${bind(f.BrandId)}`);
    if (f.TagId != null)
      where.push(
        `exists (select 1 from item_tags t where t.tenant_id = $1 and t.item_id = i.id and t.tag_id = ${bind(f.TagId)})`,
      );
    const references = new ExportReferences(this.db, this.files, {
      tenantId: row.tenant_id,
      // Without a filter the file is the whole catalog, with what no item uses.
      all: where.length === 1,
      where: where.join(' and '),
      params,
    });
    await references.loadTree();
    for await (const record of references.records()) {
      if (lease.lost) throw new Error('the export was taken over by another instance');
      yield record;
    }
    const ids = (
      await this.db.query<{ id: number }>(
        `select i.id from items i where ${where.join(' and ')}
          order by coalesce(i.default_item_id, i.id), i.id <> coalesce(i.default_item_id, i.id), i.id`,
        params,
      )
    ).map((r) => r.id);
    for (let start = 0; start < ids.length; start += PAGE) {
      if (lease.lost) throw new Error('the export was taken over by another instance');
      const page = ids.slice(start, start + PAGE);
      const rows = await this.db.query<{
        id: number;
        document: string;
        category_id: number | null;
        brand: string | null;
      }>(
        `select i.id, i.document, i.category_id, b.name as brand
           from items i
           left join brands b on b.tenant_id = i.tenant_id and b.id = i.brand_id
          where i.tenant_id = $1 and i.id = any($2::bigint[])`,
        [row.tenant_id, page],
      );
      const assets = await references.related('item_assets', 'item_id', page);
      const byId = new Map(rows.map((r) => [r.id, r]));
      // A category made while the export runs: its path is read with the tree again.
      if (rows.some((r) => r.category_id !== null && !references.knows(r.category_id)))
        await references.loadTree();
      for (const id of page) {
        const item = byId.get(id);
        if (!item) continue; // deleted since the ids were read
        count();
        yield exportRecord(
          item.document,
          item.category_id === null ? null : references.pathOf(item.category_id),
          item.brand,
          assets.get(id) ?? [],
        );
      }
    }
  }
}
