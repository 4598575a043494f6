// The import keeps the planner's statistics current while it fills a tenant, so that a chunk's
// lookups (a SKU already taken, an item's prices for its document) go by their key's index
// instead of walking every row the import wrote before (import-statistics.ts).
import { describe, expect, it } from 'vitest';
import { statisticsDue } from '../../../../src/modules/catalog/imports/import-statistics.ts';
import { JSONL, jsonl, runImport, useImportApi } from './imports-fixtures.ts';

const api = useImportApi();

const lantern = (prefix: string, i: number) => ({
  SKU: `${prefix}-${i}`,
  Title: `Lantern ${i}`,
  Category: `Category ${i % 4}`,
  Prices: [{ PriceTypeSymbol: 'EUR', NormalPrice: 10 + (i % 9) }],
  DynamicAttributes: [{ TypeName: 'Color', Value: ['Red', 'Blue'][i % 2] }],
  Tags: [{ Name: `Tag ${i % 3}` }],
});

/**
 * The indexes the plan of a statement reads (on Citus, the plan each shard's task runs; shard
 * names lose their shard number).
 */
async function indexesRead(sql: string, values: unknown[]): Promise<string[]> {
  const [row] = await api.database.handle.query<{ 'QUERY PLAN': unknown }>(
    `explain (format json) ${sql}`,
    values,
  );
  const names: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) for (const child of node) walk(child);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Index Name' && typeof value === 'string')
          names.push(value.replace(/_\d{6,}$/, ''));
        else walk(value);
      }
  };
  const plan = row!['QUERY PLAN'];
  walk(typeof plan === 'string' ? JSON.parse(plan) : plan);
  return names;
}

describe('statisticsDue', () => {
  it('is due when the written rows pass 1,000, 10,000, 100,000 and so on', () => {
    expect(statisticsDue(0, 999)).toBe(false);
    expect(statisticsDue(0, 1000)).toBe(true);
    expect(statisticsDue(1000, 2000)).toBe(false);
    expect(statisticsDue(9000, 10_000)).toBe(true);
    expect(statisticsDue(10_000, 99_999)).toBe(false);
    expect(statisticsDue(99_000, 100_000)).toBe(true);
    expect(statisticsDue(999_000, 1_000_000)).toBe(true);
    expect(statisticsDue(500, 500)).toBe(false);
  });
});

describe('POST /private/catalog/imports into a tenant the statistics do not know', () => {
  it("looks up SKUs and an item's prices by their keys once 1,000 rows are in", async () => {
    // Statistics taken while only another tenant has items: they know nothing of the new one.
    const other = await api.createTenant('stats-other');
    const before = await runImport(
      api,
      other,
      jsonl(Array.from({ length: 300 }, (_, i) => lantern('O', i))),
      JSONL,
      'createMissing=true',
    );
    expect(before.RowsWritten).toBe(300);
    await api.database.handle.exec('analyze items, item_prices');

    const tenant = await api.createTenant('stats-new');
    const job = await runImport(
      api,
      tenant,
      jsonl(Array.from({ length: 1200 }, (_, i) => lantern('N', i))),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 1200 });
    const { id: tenantId } = (await api.services.tenants.findByName('stats-new'))!;

    // The statements of import-chunk.ts, as they look a key up within the tenant.
    expect(
      await indexesRead('select 1 from items where tenant_id = $1 and sku = $2 limit 1', [
        tenantId,
        'N-5',
      ]),
    ).toEqual(['items_sku']);
    expect(
      await indexesRead(
        'select price_type_id from item_prices where tenant_id = $1 and item_id = $2',
        [tenantId, 1],
      ),
    ).toEqual(['item_prices_tenant_id_item_id_price_type_id_key']);
  });
});
