// The job queue's tables are pg-boss's own, created from its construction script on a new
// database (pg-boss migrates them itself when a later version starts).
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/database.ts';

export const JOB_SCHEMA = 'pgboss';

export async function ensureJobSchema(database: DatabaseHandle): Promise<void> {
  const exists = async () =>
    (
      await database.query<{ exists: boolean }>(
        `select to_regclass('${JOB_SCHEMA}.version') is not null as exists`,
      )
    )[0]?.exists;
  if (await exists()) return;
  try {
    await database.exec(PgBoss.getConstructionPlans(JOB_SCHEMA));
  } catch (error) {
    // Another instance starting at the same moment created it first.
    if (!(await exists())) throw error;
  }
}
