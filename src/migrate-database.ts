// Everything the database needs before a server or command uses it: the project's SQL migrations,
// then the job queue's own tables.
import type { DatabaseHandle } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { ensureJobSchema } from './jobs/job-schema.ts';

/** Applies pending migrations; returns the versions applied by this call. */
export async function migrateDatabase(database: DatabaseHandle): Promise<string[]> {
  const applied = await migrate(database);
  await ensureJobSchema(database);
  return applied;
}
