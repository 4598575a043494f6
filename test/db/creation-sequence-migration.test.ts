// Migrations 0269–0271 (lists in creation order by a sequence): rows made before them are
// numbered in the order the lists showed them, whatever their physical order; numbering them is
// no event; rows made after them come after every earlier row, whatever created_at says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { bundledMigrations, migrate } from '../../src/db/schema/migrate.ts';
import { openEmptyDatabase } from '../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// Inserted in this order; their created_at put them in the order 2, 3, 1 (3 and 1 tie, so the
// id decides), and 2 is updated afterwards, which moves its row to the end of the table.
const MADE = [
  { n: 1, at: '2024-01-03T00:00:00Z' },
  { n: 2, at: '2024-01-01T00:00:00Z' },
  { n: 3, at: '2024-01-03T00:00:00Z' },
];
const LISTED = [2, 1, 3].map(uuid);

async function listed(table: string, tenant: number): Promise<string[]> {
  const rows = await database.query<{ id: string }>(
    `select id::text as id from ${table} where tenant_id = $1 order by created_seq`,
    [tenant],
  );
  return rows.map((r) => r.id);
}

describe('migrations 0269_creation_sequence, 0270 and 0271', () => {
  it('number existing rows in list order, record no event, and number new rows after them', async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0269'),
    );
    const [tenant] = await database.query<{ id: number }>(
      "insert into tenants (name) values ('numbered') returning id",
    );
    const t = tenant!.id;
    for (const { n, at } of MADE) {
      await database.query(
        `insert into oauth_apps (tenant_id, id, name, application_type_id, secret_hash, created_at)
         values ($1, $2, $3, 3, 'x', $4)`,
        [t, uuid(n), `App ${n}`, at],
      );
      await database.query(
        `insert into members (tenant_id, id, username, name, password_hash, roles, created_at)
         values ($1, $2, $3, 'M', 'x', '{owner}', $4)`,
        [t, uuid(n), `member-${n}`, at],
      );
      await database.query(
        `insert into member_invitations (tenant_id, id, email, roles, token_hash, created_at, expires_at)
         values ($1, $2, $3, '{analyst}', $4, $5, now() + interval '1 day')`,
        [t, uuid(n), `m${n}@example.com`, `token-${n}`, at],
      );
    }
    await database.query("update oauth_apps set name = 'App 2 renamed' where id = $1", [uuid(2)]);
    await database.query("update members set name = 'Renamed' where id = $1", [uuid(2)]);
    const [before] = await database.query<{ n: number }>('select count(*)::int as n from events');

    await migrate(database, all);

    for (const table of ['oauth_apps', 'members', 'member_invitations'])
      expect(await listed(table, t), table).toEqual(LISTED);
    const [after] = await database.query<{ n: number }>('select count(*)::int as n from events');
    expect(after!.n).toBe(before!.n);

    // Made later with the earliest created_at of all: still listed last.
    await database.query(
      `insert into oauth_apps (tenant_id, id, name, application_type_id, secret_hash, created_at)
       values ($1, $2, 'Later', 3, 'x', '2000-01-01T00:00:00Z')`,
      [t, uuid(4)],
    );
    expect(await listed('oauth_apps', t)).toEqual([...LISTED, uuid(4)]);
  });
});
