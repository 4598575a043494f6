// `npm run db:schema`: migrates a new in-memory embedded database with the checked-in migrations
// and writes its schema to src/db/schema.sql (test/db/schema-snapshot.test.ts checks the two agree).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS, wrapPglite } from '../connection/embedded-database.ts';
import { migrate } from './migrate.ts';
import { schemaSnapshot } from './schema-snapshot.ts';

export const SCHEMA_SNAPSHOT_FILE = path.join(import.meta.dirname, '..', 'schema.sql');

/** The schema a fresh embedded database has once every migration is applied. */
export async function freshSchemaSnapshot(): Promise<string> {
  const database = wrapPglite(new PGlite({ extensions: PGLITE_EXTENSIONS }));
  try {
    await migrate(database);
    return await schemaSnapshot(database);
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  await writeFile(SCHEMA_SNAPSHOT_FILE, await freshSchemaSnapshot());
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_SNAPSHOT_FILE)}`);
}
