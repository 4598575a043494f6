// Migration 0070 (record json instead of jsonb, the tenant cascade as a statement trigger):
// records stored before it read back unchanged, and deleting a tenant still deletes its logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/connection/database.ts';
import { bundledMigrations, migrate } from '../../../src/db/schema/migrate.ts';
import { openEmptyDatabase } from '../../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

describe('migration 0070_analytics_lean_rows', () => {
  it('keeps records stored before it readable and the tenant cascade working', async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0070'),
    );
    const [kept, dropped] = await database.query<{ id: number }>(
      "insert into tenants (name) values ('kept'), ('dropped') returning id",
    );
    const record = {
      ItemId: 7,
      ItemTitle: 'Tea "green"\\',
      PhysicalDeviceId: 'kiosk-1',
      Tags: [1, 2],
    };
    for (const tenant of [kept!, dropped!])
      await database.query(
        `insert into analytics_logs (tenant_id, counter, created_at, item_id, record)
         values ($1, 9, '2024-02-03T04:05:06Z', 7, $2::jsonb)`,
        [tenant.id, JSON.stringify(record)],
      );

    // Up to the next change of the record column (0150 makes it text).
    expect(
      await migrate(
        database,
        all.filter((m) => m.version < '0150'),
      ),
    ).toContain('0070_analytics_lean_rows');

    const rows = await database.query<{ tenant_id: number; record: unknown; type: string }>(
      `select tenant_id, record, pg_typeof(record)::text as type from analytics_logs
        order by tenant_id`,
    );
    expect(rows).toEqual([
      { tenant_id: kept!.id, record, type: 'json' },
      { tenant_id: dropped!.id, record, type: 'json' },
    ]);

    await database.query("delete from tenants where name = 'dropped'");
    const left = await database.query<{ tenant_id: number }>(
      'select tenant_id from analytics_logs',
    );
    expect(left).toEqual([{ tenant_id: kept!.id }]);
  });
});
