// Fresh planner statistics while an import fills a tenant. The chunk's lookups (a SKU already
// taken, an item's prices, attributes and tags for its document) filter by tenant and key; when
// the statistics predate the tenant's rows they estimate one row for the tenant, every index
// that starts with tenant_id then costs the same, and the planner may take one that does not
// hold the key (items by default_item_id to find a SKU): each chunk then reads every row the
// import wrote before it, and the rate falls with the file (a 1000-item chunk went from 0.5 s to
// 1.3 s over the first 5,000 items). Statistics taken once the tenant has rows make the key's
// index the only cheap one. They are taken when the import's written rows pass 1,000, 10,000,
// 100,000… (a handful of times in a million), of the key columns only (no document is read),
// after the chunk's commit. Autovacuum would take them too, but only after a tenth of the
// table has changed, which a large shared table reaches too late.
import type { DatabaseHandle } from '../../../db/connection/database.ts';

const FIRST_THRESHOLD = 1000;

const KEY_COLUMNS = [
  'items (tenant_id, sku, default_item_id)',
  'item_prices (tenant_id, item_id, price_type_id)',
  'item_attributes (tenant_id, item_id, type_id)',
  'item_tags (tenant_id, item_id, tag_id)',
  'item_assets (tenant_id, item_id, asset_id)',
  'catalog_import_skus (tenant_id, import_id, sku)',
];

/** Whether going from `before` to `after` written rows passes 1,000 × 10^k for some k ≥ 0. */
export function statisticsDue(before: number, after: number): boolean {
  for (let threshold = FIRST_THRESHOLD; threshold <= after; threshold *= 10) {
    if (before < threshold) return true;
  }
  return false;
}

/**
 * Samples the key columns of the tables an import writes. A role that does not own them gets a
 * warning from PostgreSQL and no statistics, never an error: the import goes on either way.
 */
export async function refreshImportStatistics(db: DatabaseHandle): Promise<void> {
  await db.exec(`analyze ${KEY_COLUMNS.join(', ')}`);
}
