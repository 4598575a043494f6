// `omni sample seed` against catalog imports of the very same records, in one sitting: "100,000
// items by the command at import speed or better". The seed makes BENCH_SAMPLE_ITEMS items
// (default 100,000) its way in a new tenant: its structure (categories, brands, price types,
// attributes, tags) by an import, its images, then an import job per 25,000 items, each item
// recorded as the sample's; timed to its last item (the stores and activity after are not). The
// other side makes the same in another tenant by hand: the structure's import, the same images
// uploaded, and one import job of the same item records, each with its image relation. Rounds alternate
// (BENCH_SAMPLE_ROUNDS, default 1: seed then import; 2: then import then seed). Prints items/s of
// each and their ratio. BENCH_DATABASE_URL (or DATABASE_URL) for PostgreSQL, else an embedded
// database in a new temporary folder.
// Usage: npm run bench:sample-seed
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';
import { createServices } from '../src/module-wiring.ts';
import { sampleItems, sampleStructureRecords } from '../src/modules/sample/sample-catalog.ts';
import { drawSampleImage } from '../src/modules/sample/sample-images.ts';
import { sampleNeedsOf } from '../src/sample-wiring.ts';

const ITEMS = Number(process.env.BENCH_SAMPLE_ITEMS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_SAMPLE_ROUNDS ?? 1);
const BASE_URL = 'http://bench.localhost';
const env: NodeJS.ProcessEnv = { ...process.env, SAMPLE_CATALOG: 'false' };
if (env.BENCH_DATABASE_URL) env.DATABASE_URL = env.BENCH_DATABASE_URL;
if (!env.DATABASE_URL && !env.DATA_DIR)
  env.DATA_DIR = await mkdtemp(path.join(tmpdir(), 'omni-sample-bench-'));
const config = loadConfig(env);
const database = await openDatabase(config);
await migrateDatabase(database);
const services = createServices(config, database);
const needs = sampleNeedsOf(services);

const jsonl = (records: readonly unknown[]) =>
  Buffer.from(records.map((record) => JSON.stringify(record) + '\n').join(''));

async function newTenant(kind: string): Promise<number> {
  const { tenant } = await services.tenants.create(`bench-${kind}-${randomUUID().slice(0, 8)}`);
  return tenant.id;
}

async function importJob(tenantId: number, records: readonly unknown[]): Promise<void> {
  const job = await needs.catalog.createImport(tenantId, BASE_URL, jsonl(records));
  const end = await needs.catalog.runImport(tenantId, job, () => {});
  if (end.state !== 'Succeeded' || end.rowsFailed > 0)
    throw new Error(`import ${job} ended ${end.state}: ${JSON.stringify(end)}`);
}

/**
 * The seed from its start to its last item (its structure, images and items: the stores and the
 * activity after them are left out), in items per second.
 */
async function seedRate(): Promise<number> {
  const tenantId = await newTenant('seed');
  const started = Date.now();
  let itemsDone = 0;
  await services.sample.seeder.seed(tenantId, BASE_URL, ITEMS, (phase, done, total) => {
    if (phase === 'items' && done === total && itemsDone === 0) itemsDone = Date.now();
  });
  const counts = await services.sample.seeder.counts(tenantId);
  if (counts.item !== ITEMS) throw new Error(`the seed made ${counts.item} items`);
  return ITEMS / ((itemsDone - started) / 1000);
}

/** The same structure, images and item records by catalog imports (the items in one job). */
async function importRate(): Promise<number> {
  const tenantId = await newTenant('import');
  const started = Date.now();
  await importJob(tenantId, sampleStructureRecords());
  const images = new Map<string, number>();
  for (const item of sampleItems(1, ITEMS))
    if (!images.has(item.image.fileName))
      images.set(
        item.image.fileName,
        await needs.storage.upload(
          tenantId,
          BASE_URL,
          { fileName: item.image.fileName, mimeType: 'image/svg+xml' },
          drawSampleImage(item.image),
        ),
      );
  const records = [...sampleItems(1, ITEMS)].map((item) => ({
    ...item.record,
    Assets: [{ AssetId: images.get(item.image.fileName), IsDefault: true }],
  }));
  await importJob(tenantId, records);
  return ITEMS / ((Date.now() - started) / 1000);
}

try {
  for (let round = 0; round < ROUNDS; round++) {
    let seeded: number;
    let imported: number;
    if (round % 2 === 0) {
      seeded = await seedRate();
      imported = await importRate();
    } else {
      imported = await importRate();
      seeded = await seedRate();
    }
    console.log(
      JSON.stringify({
        round: round + 1,
        items: ITEMS,
        seedItemsPerSecond: Math.round(seeded),
        importItemsPerSecond: Math.round(imported),
        seedToImport: Number((seeded / imported).toFixed(2)),
      }),
    );
  }
} finally {
  await database.close();
}
