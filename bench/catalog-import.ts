// The catalog import against its baseline, in one run: BENCH_IMPORT_ROWS items (default
// 100k) with two prices, two dynamic attributes, a tag, a category and a brand, imported by the
// import job (validation, references, documents and search indexing by the database's triggers)
// into a new tenant; then the same rows written by bare multi-row INSERTs, 1000 rows a statement,
// into plain tables of the same columns without triggers or indexes beyond their keys.
// Prints rows per second of both and their ratio (target ≥ 0.5), and writes them to
// bench/results/import.json. The import's rate is also reported per segment of the file
// (BENCH_IMPORT_SEGMENT records, default 100k; at least one chunk), with the median and p90 time
// of a chunk in each: a rate that falls from the first segment to the last is a cost that grows
// with the tenant's size. `lastToFirst` is the last segment's rate over the first's.
// Usage: BENCH_ONLY=import npm run bench, or node bench/catalog-import.ts; BENCH_DATABASE_URL (or
// DATABASE_URL) for PostgreSQL, else an embedded database in a new temporary folder (or DATA_DIR).
// BENCH_IMPORT_ROWS=1000000 (or BENCH_IMPORT_1M=1) imports a million; BENCH_IMPORT_BASELINE=0
// skips the bare INSERTs (a million of them take a few minutes more).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServices } from '../src/module-wiring.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';
import { importJob, importRecord, reportImport } from './import-records.ts';

const ROWS = Number(
  process.env.BENCH_IMPORT_ROWS ?? (process.env.BENCH_IMPORT_1M === '1' ? 1_000_000 : 100_000),
);
const SEGMENT = Math.max(1000, Number(process.env.BENCH_IMPORT_SEGMENT ?? 100_000));
const WITH_BASELINE = process.env.BENCH_IMPORT_BASELINE !== '0';
const env = { ...process.env };
if (env.BENCH_DATABASE_URL) env.DATABASE_URL = env.BENCH_DATABASE_URL;
// On the embedded database, never the project's own ./data.
const scratch =
  env.DATABASE_URL || env.DATA_DIR ? undefined : await mkdtemp(path.join(tmpdir(), 'omni-import-'));
if (scratch) env.DATA_DIR = scratch;
const config = loadConfig(env);
const database = await openDatabase(config);

const record = importRecord;

/** When the import read past each segment's end, and how long each of its chunks took. */
class SegmentClock {
  private readonly size: number;
  private last: { rows: number; at: bigint };
  private readonly chunks: { rows: number; ms: number }[] = [];

  constructor(size: number, started: bigint) {
    this.size = size;
    this.last = { rows: 0, at: started };
  }

  reached(rows: number): void {
    if (rows <= this.last.rows) return;
    const at = process.hrtime.bigint();
    this.chunks.push({ rows, ms: Number(at - this.last.at) / 1e6 });
    this.last = { rows, at };
  }

  /** Per segment: its records, rate, and the median and p90 time of its chunks. */
  report() {
    const segments: { from: number; to: number; ms: number[]; rows: number }[] = [];
    let from = 0;
    for (const { rows, ms } of this.chunks) {
      const index = Math.floor((rows - 1) / this.size);
      let segment = segments[index];
      if (!segment) segment = segments[index] = { from, to: rows, ms: [], rows: 0 };
      segment.ms.push(ms);
      segment.rows += rows - from;
      segment.to = rows;
      from = rows;
    }
    return segments.filter(Boolean).map((segment) => {
      const sorted = [...segment.ms].sort((a, b) => a - b);
      const seconds = segment.ms.reduce((sum, ms) => sum + ms, 0) / 1000;
      return {
        segment: `${segment.to - segment.rows + 1}..${segment.to}`,
        rowsPerSecond: Math.round(segment.rows / seconds),
        chunkMsMedian: Math.round(sorted[Math.floor(sorted.length / 2)]!),
        chunkMsP90: Math.round(sorted[Math.floor(sorted.length * 0.9)]!),
      };
    });
  }
}

try {
  await migrateDatabase(database);
  const services = createServices(config, database);
  const name = `bench-import-${randomUUID().slice(0, 8)}`;
  const { tenant } = await services.tenants.create(name);
  const runImport = await importJob(services, tenant.id, ROWS);
  let started = process.hrtime.bigint();
  const segments = new SegmentClock(SEGMENT, started);
  await runImport((rows) => segments.reached(rows));
  const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const segment of segments.report()) console.log(JSON.stringify(segment));

  // Baseline: the same rows, bare multi-row INSERTs into trigger-less tables of the same columns.
  const suffix = randomUUID().slice(0, 8).replace(/-/g, '');
  const items = `bench_items_${suffix}`;
  const prices = `bench_prices_${suffix}`;
  const attributes = `bench_attributes_${suffix}`;
  const tags = `bench_tags_${suffix}`;
  await database.exec(`
    create table ${items} (tenant_id int, id int, sku text, title text, model text, short_description text,
      category_id int, brand_id int, item_status_id smallint default 1, in_stock boolean default false,
      date_added timestamptz default now(), date_modified timestamptz default now(), version int default 1,
      primary key (tenant_id, id));
    create table ${prices} (tenant_id int, item_id int, price_type_id int, normal_price numeric(14,4),
      discount_price numeric(14,4), primary key (tenant_id, item_id, price_type_id));
    create table ${attributes} (tenant_id int, item_id int, type_id int, value_id int, primary key (tenant_id, item_id, type_id));
    create table ${tags} (tenant_id int, item_id int, tag_id int, primary key (tenant_id, item_id, tag_id));`);
  started = process.hrtime.bigint();
  for (let start = 0; start < (WITH_BASELINE ? ROWS : 0); start += 1000) {
    const n = Math.min(1000, ROWS - start);
    const rows = Array.from({ length: n }, (_, k) => ({ i: start + k, r: record(start + k) }));
    const values = (width: number, count: number) =>
      Array.from(
        { length: count },
        (_, k) =>
          `(${Array.from({ length: width }, (_, c) => `$${k * width + c + 1}`).join(', ')})`,
      ).join(', ');
    await database.rawTransaction(async (sql) => {
      await sql.query(
        `insert into ${items} (tenant_id, id, sku, title, model, short_description, category_id, brand_id) values ${values(8, n)}`,
        rows.flatMap(({ i, r }) => [
          1,
          i,
          r.SKU,
          r.Title,
          r.Model,
          r.ShortDescription,
          i % 20,
          i % 30,
        ]),
      );
      await sql.query(
        `insert into ${prices} (tenant_id, item_id, price_type_id, normal_price, discount_price) values ${values(5, n * 2)}`,
        rows.flatMap(({ i, r }) =>
          r.Prices.flatMap((p, t) => [1, i, t, p.NormalPrice, p.DiscountPrice ?? null]),
        ),
      );
      await sql.query(
        `insert into ${attributes} (tenant_id, item_id, type_id, value_id) values ${values(4, n * 2)}`,
        rows.flatMap(({ i }) => [1, i, 1, i % 3, 1, i, 2, i % 10]),
      );
      await sql.query(
        `insert into ${tags} (tenant_id, item_id, tag_id) values ${values(3, n)}`,
        rows.flatMap(({ i }) => [1, i, i % 5]),
      );
    });
  }
  const baselineSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  await database.exec(`drop table ${items}, ${prices}, ${attributes}, ${tags}`);
  await services.tenants.delete(name);
  const importRate = ROWS / importSeconds;
  const baselineRate = ROWS / baselineSeconds;
  const rates = segments.report().map((s) => s.rowsPerSecond);
  const summary = JSON.stringify({
    rows: ROWS,
    engine: database.engine,
    importSeconds: Math.round(importSeconds * 10) / 10,
    importRowsPerSecond: Math.round(importRate),
    segmentRows: SEGMENT,
    segmentRowsPerSecond: rates,
    lastToFirst: Math.round((rates.at(-1)! / rates[0]!) * 1000) / 1000,
    ...(WITH_BASELINE
      ? {
          baselineSeconds: Math.round(baselineSeconds * 10) / 10,
          baselineRowsPerSecond: Math.round(baselineRate),
          ratio: Math.round((importRate / baselineRate) * 1000) / 1000,
        }
      : {}),
  });
  await reportImport('import.json', summary);
} finally {
  await database.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
