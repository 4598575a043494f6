// Running a script of several statements (a migration, an SQL code file). Citus refuses a script
// that holds a DDL statement on a distributed table among others ("cannot insert multiple
// commands into a prepared statement": it sends the statement's text on to the workers), so on
// Citus each statement goes alone, cut where PostgreSQL's own parser (libpg-query) says one ends:
// dollar quotes, strings and comments may hold semicolons.
import { loadModule, parseSync } from 'libpg-query';
import type { RawSql } from '../connection/database.ts';

let parserLoaded: Promise<void> | undefined;

/** A statement of a script: its text, and its parse tree (one key: the statement's kind). */
export interface ScriptStatement {
  text: string;
  tree: Record<string, unknown>;
}

/** The statements of a script, each with its text and its parse tree. */
export async function parsedStatements(script: string): Promise<ScriptStatement[]> {
  await (parserLoaded ??= loadModule());
  const { stmts } = parseSync(script) as {
    stmts: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[];
  };
  // Locations count bytes of the UTF-8 text, not characters.
  const bytes = Buffer.from(script, 'utf8');
  return stmts.map(({ stmt, stmt_location: start = 0, stmt_len: length }) => ({
    text: bytes
      .subarray(start, length === undefined ? undefined : start + length)
      .toString('utf8')
      .trim(),
    tree: stmt,
  }));
}

/** The statements of a script, each as its text. */
export async function scriptStatements(script: string): Promise<string[]> {
  return (await parsedStatements(script)).map((statement) => statement.text);
}

/** Runs the script: whole, or (`oneByOne`, on Citus) statement by statement. */
export async function runScript(sql: RawSql, script: string, oneByOne: boolean): Promise<void> {
  if (!oneByOne) return sql.exec(script);
  for (const statement of await scriptStatements(script)) await sql.exec(statement);
}
