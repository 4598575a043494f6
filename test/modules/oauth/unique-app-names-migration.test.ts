// Migration 0221 (unique app names): apps that shared a name before it keep the oldest one's
// name (the predefined app first); each other one gets the start of its ApplicationId appended,
// within 256 characters; afterwards a second app of a name is refused in any case or spacing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../src/db/database.ts';
import { bundledMigrations, migrate } from '../../../src/db/migrate.ts';
import { openEmptyDatabase } from '../../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

describe('migration 0221_unique_app_names', () => {
  it('renames all but the first app of each name, and refuses duplicates from then on', async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0221'),
    );
    const tenantIds: number[] = [];
    for (const name of ['acme', 'globex']) {
      const [row] = await database.query<{ id: number }>(
        'insert into tenants (name) values ($1) returning id',
        [name],
      );
      tenantIds.push(row!.id);
    }
    const [acme, globex] = tenantIds as [number, number];
    const long = 'L'.repeat(256);
    const apps: [number, string, string, boolean, string][] = [
      // tenant, id, name, predefined, created
      [acme, randomUUID(), 'Kiosk', false, '2024-01-01'],
      [acme, randomUUID(), 'kiosk ', false, '2024-01-02'],
      [acme, randomUUID(), 'KIOSK', false, '2024-01-03'],
      [acme, randomUUID(), 'Admin', false, '2023-01-01'],
      [acme, randomUUID(), 'admin', true, '2024-06-01'],
      [acme, randomUUID(), long, false, '2024-01-01'],
      [acme, randomUUID(), long, false, '2024-01-02'],
      [acme, randomUUID(), 'Alone', false, '2024-01-01'],
      [globex, randomUUID(), 'Kiosk', false, '2024-01-05'],
    ];
    for (const [tenant, id, name, predefined, created] of apps)
      await database.query(
        `insert into oauth_apps (tenant_id, id, name, application_type_id, is_predefined, secret_hash, created_at)
         values ($1, $2, $3, 2, $4, 'hash', $5)`,
        [tenant, id, name, predefined, created],
      );

    await migrate(database, all);

    const names = new Map(
      (
        await database.query<{ id: string; name: string }>('select id::text, name from oauth_apps')
      ).map((r) => [r.id, r.name]),
    );
    const nameOf = (index: number) => names.get(apps[index]![1])!;
    const marked = (index: number, base: string) => `${base} (${apps[index]![1].slice(0, 8)})`;
    expect(nameOf(0)).toBe('Kiosk');
    expect(nameOf(1)).toBe(marked(1, 'kiosk '));
    expect(nameOf(2)).toBe(marked(2, 'KIOSK'));
    // The predefined app keeps its name, although the other one is older.
    expect(nameOf(4)).toBe('admin');
    expect(nameOf(3)).toBe(marked(3, 'Admin'));
    expect(nameOf(5)).toBe(long);
    expect(nameOf(6)).toHaveLength(256);
    expect(nameOf(6)).toBe(marked(6, 'L'.repeat(245)));
    expect(nameOf(7)).toBe('Alone');
    expect(nameOf(8)).toBe('Kiosk');
    // The stored documents follow the new names.
    const [document] = await database.query<{ document: string }>(
      'select document from oauth_apps where tenant_id = $1 and id = $2',
      [acme, apps[1]![1]],
    );
    expect(JSON.parse(document!.document)).toMatchObject({ Name: marked(1, 'kiosk ') });

    await expect(
      database.query(
        `insert into oauth_apps (tenant_id, id, name, application_type_id, secret_hash)
         values ($1, $2, ' alone ', 2, 'hash')`,
        [acme, randomUUID()],
      ),
    ).rejects.toThrow(/oauth_apps_name|unique|duplicate/i);
  });
});
