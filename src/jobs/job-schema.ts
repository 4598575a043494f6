// The job queue's tables are pg-boss's own, created from its construction script on a new
// database (pg-boss migrates them itself when a later version starts).
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type { DatabaseHandle, RawSql } from '../db/connection/database.ts';

export const JOB_SCHEMA = 'pgboss';

/** The version of pg-boss's tables this build's pg-boss works with. */
const JOB_SCHEMA_VERSION = (
  createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }
).schema;

/** Whether pg-boss's tables are there at the version this build's pg-boss works with. */
export async function jobSchemaCurrent(sql: RawSql): Promise<boolean> {
  const [table] = await sql.query<{ found: boolean }>(
    `select to_regclass('${JOB_SCHEMA}.version') is not null as found`,
  );
  if (!table?.found) return false;
  const [row] = await sql.query<{ version: number }>(`select version from ${JOB_SCHEMA}.version`);
  return row?.version === JOB_SCHEMA_VERSION;
}

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
