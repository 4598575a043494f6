// Hot statements run prepared under a name (DatabaseHandle.prepared): on PGlite through the
// engine's own protocol (src/db/connection/pglite-statements.ts), on PostgreSQL per pooled connection.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;

const BY_ID = `select id, label, created_at as "createdAt", flag, amount from prepared_probe where id = $1`;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.handle.exec(`
    create table prepared_probe (
      id uuid primary key, label text, created_at timestamptz not null, flag boolean, amount integer
    );
    insert into prepared_probe values
      ('8d6f1c3e-2a4b-4c5d-9e6f-7a8b9c0d1e2f', 'Şişli €5 🙂', '2026-01-02T03:04:05.678Z', true, 42),
      ('00000000-0000-4000-8000-000000000000', null, '2026-01-01T00:00:00Z', null, null);`);
});
afterAll(() => database.handle.close());

describe('prepared', () => {
  it('answers the rows query() answers, with the same value types', async () => {
    const id = '8d6f1c3e-2a4b-4c5d-9e6f-7a8b9c0d1e2f';
    const prepared = await database.handle.prepared('probe_by_id', BY_ID, [id]);
    expect(prepared).toEqual(await database.handle.query(BY_ID, [id]));
    expect(prepared).toEqual([
      {
        id,
        label: 'Şişli €5 🙂',
        createdAt: new Date('2026-01-02T03:04:05.678Z'),
        flag: true,
        amount: 42,
      },
    ]);
  });

  it('runs again with other parameters, including nulls and no match', async () => {
    const [row] = await database.handle.prepared<{ label: unknown; flag: unknown }>(
      'probe_by_id',
      BY_ID,
      ['00000000-0000-4000-8000-000000000000'],
    );
    expect(row).toMatchObject({ label: null, flag: null });
    expect(
      await database.handle.prepared('probe_by_id', BY_ID, [
        '11111111-1111-4111-8111-111111111111',
      ]),
    ).toEqual([]);
    expect(
      await database.handle.prepared(
        'probe_by_label',
        'select count(*)::int as n from prepared_probe where label is not distinct from $1',
        [null],
      ),
    ).toEqual([{ n: 1 }]);
  });

  it("refuses a value its parameter's type cannot take with the SQLSTATE, and keeps working", async () => {
    await expect(
      database.handle.prepared('probe_by_id', BY_ID, ['not-a-uuid']),
    ).rejects.toMatchObject({ code: '22P02' });
    expect(
      await database.handle.prepared('probe_by_id', BY_ID, [
        '8d6f1c3e-2a4b-4c5d-9e6f-7a8b9c0d1e2f',
      ]),
    ).toHaveLength(1);
  });

  it('refuses SQL that does not parse, and prepares nothing under that name', async () => {
    await expect(
      database.handle.prepared('probe_broken', 'select from from prepared_probe', []),
    ).rejects.toMatchObject({ code: '42601' });
    expect(
      await database.handle.prepared(
        'probe_broken',
        'select count(*)::int as n from prepared_probe',
        [],
      ),
    ).toEqual([{ n: 2 }]);
  });

  // node-postgres prepares per pooled connection and checks the name only on a connection that
  // has it; the embedded engine has one connection and checks every time.
  it.runIf(inject('testDatabase').engine === 'pglite')(
    'refuses a name already prepared as other SQL',
    async () => {
      await expect(
        database.handle.prepared('probe_by_id', 'select 1 where $1::uuid is not null', [
          '8d6f1c3e-2a4b-4c5d-9e6f-7a8b9c0d1e2f',
        ]),
      ).rejects.toThrow(/probe_by_id/);
    },
  );

  it("never runs inside another caller's open transaction", async () => {
    let insertedInTransaction!: () => void;
    const inserted = new Promise<void>((resolve) => (insertedInTransaction = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const transaction = database.handle
      .rawTransaction(async (sql) => {
        await sql.query(
          `insert into prepared_probe values ('22222222-2222-4222-8222-222222222222', 'uncommitted', now(), false, 1)`,
        );
        insertedInTransaction();
        await finished;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await inserted;
    const count = database.handle.prepared<{ n: number }>(
      'probe_count',
      'select count(*)::int as n from prepared_probe',
      [],
    );
    finish();
    expect(await transaction).toBe('rolled back');
    expect(await count).toEqual([{ n: 2 }]);
  });
});
