// A few weeks of shopper activity for the sample's stores and items: views, likes, shares, cart
// and wishlist adds and omni shares, busier at weekends, growing week by week, with some items
// far more popular than others, so that the dashboard, the summaries and trending have a shape.
import { randomUUID } from 'node:crypto';
import { sampleRandom } from './sample-catalog.ts';

export const SAMPLE_ANALYTICS_DAYS = 28;

export interface ActivityItem {
  id: number;
  title: string;
}
export interface ActivityStore {
  id: number;
  name: string;
  /** The store's physical devices, which record its activity. */
  devices: { id: string; description: string }[];
}

/** The kinds of activity and their shares of all records. */
const MIX: { counter: string; share: number }[] = [
  { counter: 'ItemView', share: 0.68 },
  { counter: 'ItemLike', share: 0.1 },
  { counter: 'ItemShare', share: 0.05 },
  { counter: 'AddedShoppingCartItem', share: 0.09 },
  { counter: 'AddedWishlistItem', share: 0.05 },
  { counter: 'OmniShareFromInStoreDeviceToCustomerDevice', share: 0.015 },
  { counter: 'OmniShareFromCustomerDeviceToInStoreDevice', share: 0.008 },
  { counter: 'OmniShareFromInStoreDeviceToInStoreDevice', share: 0.004 },
  { counter: 'OmniShareFromCustomerDeviceToCustomerDevice', share: 0.003 },
];

function counterOf(roll: number): string {
  let sum = 0;
  for (const { counter, share } of MIX) {
    sum += share;
    if (roll < sum) return counter;
  }
  return 'ItemView';
}

/** One record of a counter, in the fields that counter has for its item, store and device. */
function record(
  counter: string,
  at: Date,
  item: ActivityItem,
  store: ActivityStore,
  device: { id: string; description: string },
  other: { id: string; description: string },
): Record<string, unknown> {
  const base = {
    Counter: counter,
    CreatedDate: at.toISOString(),
    PhysicalDeviceId: device.id,
    PhysicalDeviceDescription: device.description,
  };
  switch (counter) {
    case 'ItemView':
    case 'ItemShare':
      return {
        ...base,
        ItemId: item.id,
        ItemTitle: item.title,
        StoreId: store.id,
        StoreName: store.name,
      };
    case 'ItemLike':
      return {
        ...base,
        RelatedItemId: item.id,
        LikeCount: 1,
        StoreId: store.id,
        StoreName: store.name,
      };
    case 'AddedShoppingCartItem':
      return {
        ...base,
        ItemId: item.id,
        ItemTitle: item.title,
        Quantity: 1,
        AddedStoreId: store.id,
        AddedStoreName: store.name,
      };
    case 'AddedWishlistItem':
      return {
        ...base,
        ItemId: item.id,
        ItemTitle: item.title,
        AddedStoreId: store.id,
        AddedStoreName: store.name,
      };
    default:
      return {
        ...base,
        OmniTicket: randomUUID(),
        SharedToPhysicalDeviceId: other.id,
        SharedToPhysicalDeviceDescription: other.description,
        StoreId: store.id,
        StoreName: store.name,
      };
  }
}

/**
 * The records of the days ending with `now`, a day at a time (oldest first), each day's in
 * batches of at most 1000 (what one ingestion takes). A day's volume grows with the catalog, up
 * to 3,000 records.
 */
export function* sampleActivity(
  items: readonly ActivityItem[],
  stores: readonly ActivityStore[],
  now: Date,
): Generator<{ day: number; batch: Record<string, unknown>[] }> {
  if (items.length === 0 || stores.length === 0) return;
  const perDay = Math.min(3000, Math.max(200, Math.round(items.length * 1.5)));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let n = 0;
  for (let day = SAMPLE_ANALYTICS_DAYS - 1; day >= 0; day--) {
    const start = today - day * 86_400_000;
    const weekday = new Date(start).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 1.4 : 1;
    const growth = 0.75 + (0.5 * (SAMPLE_ANALYTICS_DAYS - day)) / SAMPLE_ANALYTICS_DAYS;
    const count = Math.round(perDay * weekend * growth);
    // Today's records stop a minute before now (ingestion refuses times ahead of the server's).
    const end = Math.min(start + 86_400_000, now.getTime() - 60_000);
    if (end <= start) continue;
    let batch: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i++, n++) {
      // Opening hours, about 08:00 to 20:00 UTC, more in the afternoon.
      const hour = 8 + 12 * Math.sqrt(sampleRandom(n, 21));
      const at = Math.min(start + hour * 3_600_000, end - 1);
      // A few items take most of the attention (a power law over a shuffled order).
      const rank = Math.floor(items.length * Math.pow(sampleRandom(n, 22), 1.6));
      const item = items[(rank * 7919) % items.length]!;
      const store = stores[Math.floor(sampleRandom(n, 23) * stores.length)]!;
      const device = store.devices[Math.floor(sampleRandom(n, 24) * store.devices.length)]!;
      const other = store.devices[(store.devices.indexOf(device) + 1) % store.devices.length]!;
      batch.push(record(counterOf(sampleRandom(n, 25)), new Date(at), item, store, device, other));
      if (batch.length === 1000) {
        yield { day, batch };
        batch = [];
      }
    }
    if (batch.length > 0) yield { day, batch };
  }
}

/** The last `days` calendar days (UTC) ending with now's, as YYYY-MM-DD, oldest first. */
export function recentDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
