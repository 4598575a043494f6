// The records the import benches import (catalog-import.ts, history-import-cost.ts): items with
// two prices, two dynamic attributes, a tag, a category and a brand (20 categories, 30 brands,
// made on the way), run by the import job as the server runs it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { createServices } from '../src/module-wiring.ts';

type Services = ReturnType<typeof createServices>;

export const importRecord = (i: number) => ({
  SKU: `IMP-${i}`,
  Title: `Imported lantern ${i}`,
  Model: `M${i % 50}`,
  ShortDescription: `A lantern of model ${i % 50}`,
  Category: `Category ${i % 20}`,
  Brand: `Brand ${i % 30}`,
  Prices: [
    { PriceTypeSymbol: 'EUR', NormalPrice: 10 + (i % 90), DiscountPrice: 5 },
    { PriceTypeSymbol: 'USD', NormalPrice: 12 + (i % 90) },
  ],
  DynamicAttributes: [
    { TypeName: 'Color', Value: ['Red', 'Blue', 'Green'][i % 3] },
    { TypeName: 'Size', Value: String(i % 10) },
  ],
  Tags: [{ Name: `Tag ${i % 5}` }],
});

/**
 * Makes the import job of `rows` records (JSON lines, stored as the server stores an upload) for
 * the tenant; answers the run of it, which creates what the records name, calls `rowsRead` as it
 * goes and throws unless every record was written.
 */
export async function importJob(
  services: Services,
  tenantId: number,
  rows: number,
): Promise<(rowsRead?: (rows: number) => void) => Promise<void>> {
  const lines = function* () {
    for (let i = 0; i < rows; i++) yield JSON.stringify(importRecord(i)) + '\n';
  };
  const job = await services.catalog.imports.create(
    tenantId,
    'http://bench',
    { format: 'jsonl', errorPolicy: 'SkipFailedRows', createMissing: true },
    { body: Readable.from(lines()), mimeType: undefined },
    false,
  );
  return async (rowsRead = () => {}) => {
    await services.catalog.imports.run(tenantId, job.Id, (progress) => rowsRead(progress.RowsRead));
    const result = await services.catalog.imports.get(tenantId, job.Id);
    if (result.RowsWritten !== rows) throw new Error(`import wrote ${JSON.stringify(result)}`);
  };
}

/** Prints an import bench's summary and writes it to bench/results/<file>. */
export async function reportImport(file: string, summary: string): Promise<void> {
  console.log(summary);
  const results = path.resolve(import.meta.dirname, 'results');
  await mkdir(results, { recursive: true });
  await writeFile(path.join(results, file), summary + '\n');
}
