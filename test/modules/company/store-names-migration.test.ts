// Migration 0210 (store names unique within a tenant): stores that already shared a name keep
// the lowest id's name, the others get their id added (with a new version and an event), other
// tenants' stores are left as they are, and the name is unique afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.ts';
import { bundledMigrations, migrate } from '../../../src/db/migrate.ts';
import { openEmptyDatabase } from '../../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

describe('migration 0210_company_store_names', () => {
  it('renames the later stores of a shared name and makes names unique', async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0210'),
    );
    const tenants = await database.query<{ id: number }>(
      "insert into tenants (name) values ('acme'), ('globex') returning id",
    );
    const [acme, globex] = tenants.map((t) => t.id);
    const long = 'L'.repeat(256);
    const insert = (tenant: number, name: string) =>
      database
        .query<{ id: number; version: Date }>(
          `insert into stores (tenant_id, name, longitude, latitude)
           values ($1, $2, 13.4, 52.5) returning id, updated_at as version`,
          [tenant, name],
        )
        .then((rows) => rows[0]!);
    const first = await insert(acme!, 'Berlin Mitte');
    const second = await insert(acme!, 'berlin  mitte ');
    const third = await insert(acme!, 'BERLIN MITTE');
    const other = await insert(acme!, 'Hamburg');
    const theirs = await insert(globex!, 'Berlin Mitte');
    const longFirst = await insert(acme!, long);
    const longSecond = await insert(acme!, long);

    expect(await migrate(database, all)).toContain('0210_company_store_names');

    const rows = await database.query<{ id: number; name: string; version: Date }>(
      'select id, name, updated_at as version from stores order by id',
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(first.id)!.name).toBe('Berlin Mitte');
    expect(byId.get(second.id)!.name).toBe(`berlin  mitte (store ${second.id})`);
    expect(byId.get(third.id)!.name).toBe(`BERLIN MITTE (store ${third.id})`);
    expect(byId.get(other.id)!.name).toBe('Hamburg');
    expect(byId.get(theirs.id)!.name).toBe('Berlin Mitte');
    expect(byId.get(longFirst.id)!.name).toBe(long);
    const renamedLong = byId.get(longSecond.id)!.name;
    expect(renamedLong).toHaveLength(256);
    expect(renamedLong.endsWith(` (store ${longSecond.id})`)).toBe(true);
    // A renamed store has a new version (its ETag moves) and its store.updated event.
    expect(byId.get(second.id)!.version.getTime()).toBeGreaterThan(second.version.getTime());
    expect(byId.get(first.id)!.version.getTime()).toBe(first.version.getTime());
    const events = await database.query<{ resource_id: string; type: string }>(
      "select resource_id, type from events where resource = 'store' and type = 'store.updated' order by resource_id",
    );
    expect(events.map((e) => Number(e.resource_id)).sort((a, b) => a - b)).toEqual(
      [second.id, third.id, longSecond.id].sort((a, b) => a - b),
    );

    await expect(insert(acme!, ' Hamburg')).rejects.toThrow(/stores_name|unique/);
    await expect(insert(globex!, 'Hamburg')).resolves.toBeDefined();
  });
});
