// The database's code — SQL functions, trigger functions and triggers — kept as source files next
// to the TypeScript that relies on them, not as copies in migration history (docs/design.md,
// "SQL as code"). Migrations keep tables, indexes and data changes; these files hold the current
// version of every function and trigger, written so that they can be applied again
// (`create or replace`, `drop … if exists`).
//
// Order: src/db/sql first (what every module may call: JSON text, the event feed), then each
// module's sql folder, modules by name; within a folder, files by name (a numeric prefix states
// the order where one file needs another). Modules never call each other's functions.
//
// A file is applied after the migrations, in the migrations' transaction, when its text differs
// from the text last applied (its SHA-256 in sql_code_files) or when this run applied a
// migration (which may have rebuilt a table and with it its triggers). So a deploy with nothing
// new touches nothing. Within a file, a `create trigger` statement runs only when its trigger is
// missing or was made from another text (define_trigger, src/db/sql/005-trigger-definitions.sql):
// re-creating a trigger locks its table against writes until the deploy commits (on Citus, every
// shard of it), while a function's new body locks nothing.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RawSql } from '../connection/database.ts';
import { parsedStatements, type ScriptStatement } from './sql-script.ts';

const SHARED_SQL_DIR = path.join(import.meta.dirname, '..', 'sql');
const MODULES_DIR = path.join(import.meta.dirname, '..', '..', 'modules');

export interface SqlCodeFile {
  /** The file's path from src/, which names it in sql_code_files. */
  name: string;
  text: string;
}

let bundled: Promise<SqlCodeFile[]> | undefined;

/** The SQL code files shipped with this build, in the order they are applied (read once). */
export function bundledSqlCode(): Promise<SqlCodeFile[]> {
  bundled ??= loadSqlCode();
  return bundled;
}

async function sqlFilesOf(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => path.join(dir, name));
}

async function loadSqlCode(): Promise<SqlCodeFile[]> {
  const modules = (await readdir(MODULES_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const files = [
    ...(await sqlFilesOf(SHARED_SQL_DIR)),
    ...(await Promise.all(modules.map((m) => sqlFilesOf(path.join(MODULES_DIR, m, 'sql'))))).flat(),
  ];
  const src = path.join(import.meta.dirname, '..', '..');
  return Promise.all(
    files.map(async (file) => ({
      name: path.relative(src, file).split(path.sep).join('/'),
      text: await readFile(file, 'utf8'),
    })),
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The code files whose text differs from the text this database last applied (all on a new one). */
export async function changedSqlCode(
  sql: RawSql,
  files: readonly SqlCodeFile[],
): Promise<string[]> {
  const [table] = await sql.query<{ found: boolean }>(
    "select to_regclass('sql_code_files') is not null as found",
  );
  const applied = new Map(
    table?.found
      ? (
          await sql.query<{ name: string; sha256: string }>(
            'select name, sha256 from sql_code_files',
          )
        ).map((row) => [row.name, row.sha256])
      : [],
  );
  return files.filter((file) => applied.get(file.name) !== sha256(file.text)).map((f) => f.name);
}

/**
 * Applies the files whose text changed since they were last applied (every file when `all`);
 * answers the names of those applied. `citus`: statement by statement (sql-script.ts).
 */
export async function applySqlCode(
  sql: RawSql,
  files: readonly SqlCodeFile[],
  all: boolean,
  citus = false,
): Promise<string[]> {
  await sql.exec(
    `create table if not exists sql_code_files (
       name text primary key,
       sha256 text not null,
       applied_at timestamptz not null default now())`,
  );
  const applied = new Map(
    (
      await sql.query<{ name: string; sha256: string }>('select name, sha256 from sql_code_files')
    ).map((row) => [row.name, row.sha256]),
  );
  const done: string[] = [];
  for (const file of files) {
    const hash = sha256(file.text);
    if (!all && applied.get(file.name) === hash) continue;
    await runCodeFile(sql, file.text, citus);
    await sql.query(
      `insert into sql_code_files (name, sha256) values ($1, $2)
       on conflict (name) do update set sha256 = excluded.sha256, applied_at = now()`,
      [file.name, hash],
    );
    done.push(file.name);
  }
  return done;
}

/** The table and name of a `create trigger` statement; undefined for any other statement. */
function triggerOf(statement: ScriptStatement): { table: string; name: string } | undefined {
  const create = statement.tree['CreateTrigStmt'] as
    { trigname: string; relation: { relname: string; schemaname?: string } } | undefined;
  if (create === undefined) return undefined;
  const { relname, schemaname } = create.relation;
  return { table: schemaname ? `${schemaname}.${relname}` : relname, name: create.trigname };
}

/** The statement without the comment lines before it: a comment changed is no trigger changed. */
function withoutLeadingComments(text: string): string {
  let start = 0;
  for (;;) {
    while (start < text.length && /\s/.test(text[start]!)) start++;
    if (!text.startsWith('--', start)) return text.slice(start);
    const end = text.indexOf('\n', start);
    if (end < 0) return '';
    start = end + 1;
  }
}

/**
 * Runs a code file: its trigger statements through define_trigger, the statements between them
 * as one script (on Citus, `oneByOne`, each alone: sql-script.ts).
 */
async function runCodeFile(sql: RawSql, script: string, oneByOne: boolean): Promise<void> {
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    if (oneByOne) for (const text of pending) await sql.exec(text);
    else await sql.exec(pending.join(';\n'));
    pending = [];
  };
  for (const statement of await parsedStatements(script)) {
    const trigger = triggerOf(statement);
    if (trigger === undefined) {
      pending.push(statement.text);
      continue;
    }
    await flush();
    await sql.query('select define_trigger($1, $2, $3)', [
      trigger.table,
      trigger.name,
      withoutLeadingComments(statement.text),
    ]);
  }
  await flush();
}
