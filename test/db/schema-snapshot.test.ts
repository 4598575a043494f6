// src/db/schema.sql is the schema the checked-in migrations build. A migration added or changed
// without regenerating it fails here. Compared on the embedded database only: the file is
// written from one (npm run db:schema), and PostgreSQL 15 renders some of the catalog
// differently from PGlite's PostgreSQL 18 (extension objects, default expressions, function
// text), so the comparison on PostgreSQL would test the server's version, not the migrations.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { schemaSnapshot } from '../../src/db/schema/schema-snapshot.ts';
import { SCHEMA_SNAPSHOT_FILE } from '../../src/db/schema/write-schema-snapshot.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const engine = inject('testDatabase').engine;
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.handle.close());

describe('src/db/schema.sql', () => {
  it.runIf(engine === 'pglite')('is the schema of a freshly migrated database', async () => {
    const checkedIn = await readFile(SCHEMA_SNAPSHOT_FILE, 'utf8');
    const fresh = await schemaSnapshot(database.handle);
    expect(
      fresh,
      'src/db/schema.sql is not the schema the migrations build: run `npm run db:schema` and commit it',
    ).toEqual(checkedIn);
  });

  it('lists the functions with their full text and the event triggers', async () => {
    const snapshot = await schemaSnapshot(database.handle);
    expect(snapshot).toMatch(/CREATE OR REPLACE FUNCTION public\.items_build_document\(\)/);
    expect(snapshot).toMatch(/CREATE TRIGGER items_events_inserted AFTER INSERT ON public\.items/);
    // The job queue's own schema is pg-boss's, not the migrations'.
    expect(snapshot).not.toContain('pgboss');
  });
});
