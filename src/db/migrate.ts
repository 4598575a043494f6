// SQL migrations, checked in as numbered files and applied in order, each exactly once.
// An advisory lock makes concurrent starts of several instances apply them once.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseHandle } from './database.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const MIGRATION_LOCK_KEY = 4_242_001;

export interface Migration {
  version: string;
  script: string;
}

let bundled: Promise<Migration[]> | undefined;

/** The migrations shipped with this build (read once per process). */
export function bundledMigrations(): Promise<Migration[]> {
  bundled ??= loadMigrations(MIGRATIONS_DIR);
  return bundled;
}

export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: file.replace(/\.sql$/, ''),
      script: await readFile(path.join(dir, file), 'utf8'),
    })),
  );
}

/** Applies pending migrations; returns the versions applied by this call. */
export function migrate(database: DatabaseHandle, migrations?: Migration[]): Promise<string[]> {
  return applyMigrations(database, migrations);
}

async function applyMigrations(
  database: DatabaseHandle,
  migrations?: Migration[],
): Promise<string[]> {
  const all = migrations ?? (await bundledMigrations());
  return database.rawTransaction(async (sql) => {
    await sql.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await sql.exec(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set(
      (await sql.query<{ version: string }>('select version from schema_migrations')).map(
        (r) => r.version,
      ),
    );
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await sql.exec(migration.script);
      await sql.query('insert into schema_migrations (version) values ($1)', [migration.version]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** True when every checked-in migration has been applied (readiness). */
export async function migrationsApplied(database: DatabaseHandle): Promise<boolean> {
  const expected = await bundledMigrations();
  const rows = await database.query<{ version: string }>('select version from schema_migrations');
  const done = new Set(rows.map((r) => r.version));
  return expected.every((m) => done.has(m.version));
}
