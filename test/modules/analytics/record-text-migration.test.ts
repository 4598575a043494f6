// Migration 0150 (record as text instead of json): records stored before it read back unchanged
// through the log pages, and the trending job still reads their fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/connection/database.ts';
import { bundledMigrations, migrate } from '../../../src/db/schema/migrate.ts';
import { counterNamed, TRENDING_ITEM } from '../../../src/modules/analytics/analytics-counters.ts';
import { AnalyticsService } from '../../../src/modules/analytics/analytics-service.ts';
import { TrendingService } from '../../../src/modules/analytics/analytics-trending.ts';
import { openEmptyDatabase } from '../../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

describe('migration 0150_analytics_record_text', () => {
  it('keeps records stored before it readable and trending computing from them', async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0150'),
    );
    const [tenant] = await database.query<{ id: number }>(
      "insert into tenants (name) values ('acme') returning id",
    );
    const older = { ItemId: 7, ItemTitle: 'Old title', StoreId: 3, PhysicalDeviceId: 'kiosk-1' };
    const newer = {
      ItemId: 7,
      ItemTitle: 'Tea "green" \\ ünïcode',
      BrandId: 4,
      StoreId: 3,
      PhysicalDeviceId: 'kiosk-1',
    };
    const like = { RelatedItemId: 7, TargetPlatform: 'instagram', AddedStoreId: 3 };
    const rows: [number, string, object][] = [
      [9, '2024-02-03T04:05:06.123Z', older],
      [9, '2024-02-03T05:05:06Z', newer],
      [10, '2024-02-03T06:00:00Z', like],
    ];
    for (const [counter, at, record] of rows)
      await database.query(
        `insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, record)
         values ($1, $2, $3, 7, 3, $4::json)`,
        [tenant!.id, counter, at, JSON.stringify(record)],
      );

    expect(await migrate(database, all)).toContain('0150_analytics_record_text');
    const [column] = await database.query<{ type: string }>(
      `select format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = 'analytics_logs'::regclass and attname = 'record'`,
    );
    expect(column!.type).toBe('text');

    // The log pages read them as they were stored.
    const service = new AnalyticsService(database, async () => undefined);
    const page = await service.logs(tenant!.id, counterNamed('ItemView')!, {
      from: '2024-02-01T00:00:00Z',
      to: '2024-03-01T00:00:00Z',
      take: 10,
    });
    expect(page.Logs.map((log) => [log.ItemTitle, log.BrandId, log.CreatedDate])).toEqual([
      ['Old title', null, '2024-02-03T04:05:06.123Z'],
      ['Tea "green" \\ ünïcode', 4, '2024-02-03T05:05:06.000Z'],
    ]);

    // Trending reads their fields: three actions (1 + 1 + 3 with the default weights), the
    // latest title and brand.
    expect(await new TrendingService(database).run(tenant!.id, '2024-02-03')).toBe(1);
    const [trending] = await database.query<{ record: string }>(
      'select record from analytics_logs where tenant_id = $1 and counter = $2',
      [tenant!.id, TRENDING_ITEM],
    );
    expect(JSON.parse(trending!.record)).toMatchObject({
      ItemId: 7,
      StoreId: 3,
      ItemTitle: 'Tea "green" \\ ünïcode',
      BrandId: 4,
      TotalActionCount: 3,
      TotalActionTypeImpactValue: 5,
    });
  });
});
