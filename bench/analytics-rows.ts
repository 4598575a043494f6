// The analytics bench's records: 1000-record batches of a realistic mix (views, cart adds,
// likes), as the API takes them and as the table stores them, so that the HTTP ingestion and
// the bare-client baseline insert the same rows.
export const BATCH = 1000;

export function apiBatch(seed: number, at = new Date()): Record<string, unknown>[] {
  const created = at.toISOString();
  return Array.from({ length: BATCH }, (_, i) => {
    const n = seed * BATCH + i;
    const item = 1 + (n % 5000);
    switch (n % 4) {
      case 0:
      case 1:
        return {
          Counter: 'ItemView',
          ItemId: item,
          ItemTitle: `Item ${item}`,
          BrandId: 1 + (item % 40),
          CategoryId: 1 + (item % 90),
          PhysicalDeviceId: `kiosk-${n % 50}`,
          StoreId: 1 + (n % 12),
          CreatedDate: created,
        };
      case 2:
        return {
          Counter: 'AddedShoppingCartItem',
          ItemId: item,
          ItemTitle: `Item ${item}`,
          ShoppingCartUniqueKey: `00000000-0000-4000-8000-${String(n % 1e12).padStart(12, '0')}`,
          Quantity: 1 + (n % 3),
          AddedStoreId: 1 + (n % 12),
          PhysicalDeviceId: `kiosk-${n % 50}`,
          CreatedDate: created,
        };
      default:
        return {
          Counter: 'ItemLike',
          RelatedItemId: item,
          TargetPlatform: 'instagram',
          LikeCount: n % 100,
          PhysicalDeviceId: `kiosk-${n % 50}`,
          CreatedDate: created,
        };
    }
  });
}

const CODES: Record<string, number> = { ItemView: 9, AddedShoppingCartItem: 7, ItemLike: 10 };

/** The stored columns of one API record: counter, created_at, item, store, device, record. */
export function storedRow(record: Record<string, unknown>): unknown[] {
  const { Counter, CreatedDate, ...fields } = record;
  const item = (fields.ItemId ?? fields.RelatedItemId ?? null) as number | null;
  const store = (fields.StoreId ?? fields.AddedStoreId ?? null) as number | null;
  return [
    CODES[Counter as string],
    CreatedDate,
    item,
    store,
    fields.PhysicalDeviceId ?? null,
    JSON.stringify(fields),
  ];
}

/**
 * One multi-row INSERT of a batch (the bare-client baseline): its text and parameters. The
 * record goes in as the column's type (text since migration 0150), as the server's COPY sends it.
 */
export function multiRowInsert(tenantId: number, rows: unknown[][]): [string, unknown[]] {
  const params: unknown[] = [];
  const values = rows.map((row) => {
    const base = params.length;
    params.push(tenantId, ...row);
    return `($${base + 1},$${base + 2},$${base + 3},$${base + 4},$${base + 5},$${base + 6},$${base + 7})`;
  });
  return [
    `insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record) values ${values.join(',')}`,
    params,
  ];
}
