// Everything the database needs before a server or command uses it: the project's SQL migrations
// and code, then the job queue's own tables. On the embedded database a start applies them
// itself; on PostgreSQL and Citus `omni migrate` is the deploy's step (docs/operations.md,
// "Deploying a new version") and a start only checks that it ran, waiting for it as long as
// SCHEMA_WAIT_SECONDS says.
import type { DatabaseHandle } from './db/connection/database.ts';
import { migrate, pendingMigrations } from './db/schema/migrate.ts';
import { bundledSqlCode, changedSqlCode } from './db/schema/sql-code.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { ensureJobSchema, jobSchemaCurrent } from './jobs/job-schema.ts';
import type { AppModule } from './module.ts';

/** How often a start waiting for `omni migrate` looks again. */
const SCHEMA_POLL_MS = 2_000;

/** The command that brings a database to this build's schema, as the README shows it. */
export const MIGRATE_COMMAND = 'npm run omni -- migrate';

/** What the release step makes besides the migrations: the queues' tables, the modules' part. */
export interface ReleaseParts {
  jobs: JobQueue;
  modules: readonly AppModule[];
}

/**
 * Applies pending migrations, then the job queue's tables and, with `release` (`omni migrate`),
 * every queue's table and each module's release step; returns the versions applied by this call.
 */
export async function migrateDatabase(
  database: DatabaseHandle,
  release?: ReleaseParts,
): Promise<string[]> {
  const applied = await migrate(database);
  await ensureJobSchema(database);
  if (release) {
    await release.jobs.install();
    for (const module of release.modules) await module.release?.();
  }
  return applied;
}

/** What `omni migrate` would still change, in words; empty when the schema is this build's. */
export async function pendingSchemaChanges(database: DatabaseHandle): Promise<string[]> {
  const pending: string[] = [];
  const migrations = await pendingMigrations(database);
  if (migrations.length > 0)
    pending.push(
      `${migrations.length} migration(s) (${migrations.slice(0, 3).join(', ')}${migrations.length > 3 ? ', …' : ''})`,
    );
  const code = migrations.length > 0 ? [] : await changedSqlCode(database, await bundledSqlCode());
  if (code.length > 0) pending.push(`SQL code changed in ${code.join(', ')}`);
  if (!(await jobSchemaCurrent(database))) pending.push("the job queue's tables");
  return pending;
}

/** A start on a database whose schema is not this build's, after waiting as long as allowed. */
export class SchemaNotCurrentError extends Error {
  /** The exit code a start refused this way ends with (docs/operations.md). */
  static readonly EXIT_CODE = 3;
}

function notCurrentMessage(pending: readonly string[]): string {
  return `The database's schema is older than this version's: it lacks ${pending.join('; ')}. Run \`${MIGRATE_COMMAND}\` with the same DATABASE_URL (the deploy's release step: docs/operations.md, "Deploying a new version"), or set MIGRATE_ON_START=true to let a start apply it.`;
}

/**
 * Resolves once the database's schema is this build's. While it is not, says so once through
 * `say` and looks again every 2 s, for at most `waitSeconds`; then throws SchemaNotCurrentError.
 */
export async function awaitCurrentSchema(
  database: DatabaseHandle,
  waitSeconds: number,
  say: (message: string) => void,
): Promise<void> {
  const deadline = Date.now() + waitSeconds * 1000;
  let said = false;
  for (;;) {
    const pending = await pendingSchemaChanges(database);
    if (pending.length === 0) {
      if (said) say('The schema is now current; starting.');
      return;
    }
    if (Date.now() >= deadline) throw new SchemaNotCurrentError(notCurrentMessage(pending));
    if (!said) {
      say(`${notCurrentMessage(pending)} Waiting up to ${waitSeconds} s (SCHEMA_WAIT_SECONDS).`);
      said = true;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(SCHEMA_POLL_MS, deadline - Date.now())),
    );
  }
}

/**
 * What a server or command does before it uses the database: with MIGRATE_ON_START, migrate
 * (the job queue's start makes its queues); else wait for the schema (commands: `waitSeconds` 0).
 */
export async function prepareDatabase(
  database: DatabaseHandle,
  settings: { migrateOnStart: boolean; waitSeconds: number },
  say: (message: string) => void,
): Promise<void> {
  if (settings.migrateOnStart) await migrateDatabase(database);
  else await awaitCurrentSchema(database, settings.waitSeconds, say);
}
