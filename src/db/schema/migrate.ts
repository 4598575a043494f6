// SQL migrations, checked in as numbered files and applied in order, each exactly once. Shared
// infrastructure's migrations sit in src/db/migrations, each module's in
// src/modules/<name>/migrations; all of them form one order by version (the file name), and a
// version number belongs to one file only. After them, in the same transaction, the SQL code
// files (functions and triggers: sql-code.ts) and, on Citus, the distribution of new tables
// (distribution.ts). An advisory lock makes concurrent starts of several instances apply them
// once.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseHandle, RawSql } from '../connection/database.ts';
import { distributeNewTables, hasCitus, useCitusDdlSettings } from '../citus/distribution.ts';
import { runScript } from './sql-script.ts';
import { REPLACED_MIGRATIONS } from './replaced-migrations.ts';
import { applySqlCode, bundledSqlCode } from './sql-code.ts';

const SHARED_MIGRATIONS_DIR = path.join(import.meta.dirname, '..', 'migrations');
const MODULES_DIR = path.join(import.meta.dirname, '..', '..', 'modules');
const MIGRATION_LOCK_KEY = 4_242_001;
const VERSION_NUMBER = /^(\d{4})_[a-z0-9_]+$/;

export interface Migration {
  version: string;
  script: string;
}

let bundled: Promise<Migration[]> | undefined;

/** The migrations shipped with this build (read once per process). */
export function bundledMigrations(): Promise<Migration[]> {
  bundled ??= migrationDirectories().then(loadMigrations);
  return bundled;
}

/** src/db/migrations, then every module's migrations folder. */
export async function migrationDirectories(): Promise<string[]> {
  const modules = await readdir(MODULES_DIR, { withFileTypes: true });
  const moduleDirs = await Promise.all(
    modules
      .filter((entry) => entry.isDirectory())
      .map(async (entry) => {
        const dir = path.join(MODULES_DIR, entry.name, 'migrations');
        const found = await readdir(dir).then(
          () => true,
          () => false,
        );
        return found ? dir : undefined;
      }),
  );
  return [SHARED_MIGRATIONS_DIR, ...moduleDirs.filter((dir) => dir !== undefined).sort()];
}

/**
 * The .sql files of the given folders in one order by version. Throws when a file is not named
 * NNNN_name.sql or when two files share a version number, wherever they are.
 */
export async function loadMigrations(dirs: string | readonly string[]): Promise<Migration[]> {
  const files = (
    await Promise.all(
      (typeof dirs === 'string' ? [dirs] : dirs).map(async (dir) =>
        (await readdir(dir)).filter((f) => f.endsWith('.sql')).map((f) => path.join(dir, f)),
      ),
    )
  ).flat();
  const byNumber = new Map<string, string>();
  for (const file of files) {
    const number = VERSION_NUMBER.exec(path.basename(file, '.sql'))?.[1];
    if (number === undefined)
      throw new Error(`migration ${file} is not named NNNN_name.sql (four digits, lowercase name)`);
    const other = byNumber.get(number);
    if (other !== undefined)
      throw new Error(`migrations ${other} and ${file} share version ${number}; renumber one`);
    byNumber.set(number, file);
  }
  files.sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1));
  return Promise.all(
    files.map(async (file) => ({
      version: path.basename(file, '.sql'),
      script: await readFile(file, 'utf8'),
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
    const citus = await hasCitus(sql);
    if (citus) await useCitusDdlSettings(sql);
    await sql.exec(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set(
      (await sql.query<{ version: string }>('select version from schema_migrations')).map(
        (r) => r.version,
      ),
    );
    for (const version of replacementsOf(done)) {
      await sql.query('insert into schema_migrations (version) values ($1)', [version]);
      done.add(version);
    }
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await runScript(sql, migration.script, citus);
      await sql.query('insert into schema_migrations (version) values ($1)', [migration.version]);
      applied.push(migration.version);
    }
    // The code files are written for the schema of every bundled migration: a database brought to
    // an earlier version (a migration test's) keeps the functions its migrations made.
    for (const version of applied) done.add(version);
    if ((await bundledMigrations()).every((m) => done.has(m.version))) {
      await applySqlCode(sql, await bundledSqlCode(), applied.length > 0, citus);
      if (citus) await distributeNewTables(sql);
    }
    return applied;
  });
}

/** The versions that replace old versions recorded in `done`, and are not recorded yet. */
function replacementsOf(done: ReadonlySet<string>): string[] {
  return Object.entries(REPLACED_MIGRATIONS)
    .filter(([old]) => done.has(old))
    .flatMap(([, versions]) => versions.filter((version) => !done.has(version)));
}

/** The checked-in migrations this database has not applied, in order (all on a new database). */
export async function pendingMigrations(database: RawSql): Promise<string[]> {
  const expected = await bundledMigrations();
  const [table] = await database.query<{ found: boolean }>(
    "select to_regclass('schema_migrations') is not null as found",
  );
  const rows = table?.found
    ? await database.query<{ version: string }>('select version from schema_migrations')
    : [];
  const done = new Set(rows.map((r) => r.version));
  for (const version of replacementsOf(done)) done.add(version);
  return expected.filter((m) => !done.has(m.version)).map((m) => m.version);
}

/** True when every checked-in migration has been applied (readiness). */
export async function migrationsApplied(database: DatabaseHandle): Promise<boolean> {
  return (await pendingMigrations(database)).length === 0;
}
