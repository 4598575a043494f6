// pg-boss talks to its database through `executeSql(text, values)`. On PostgreSQL of one host it
// opens its own pool; on the embedded database it goes through this adapter to the one PGlite
// instance, and on several hosts (a failover pair) to the server's pool, which follows the primary.
// A statement with parameters runs as a prepared query; pg-boss's schema scripts (several
// statements, no parameters) run as a script, whose last result is the answer.
import type PgBoss from 'pg-boss';
import type { RawSql } from '../db/connection/database.ts';

export function bossDb(
  sql: RawSql & { execRows?: (script: string) => Promise<unknown[]> },
): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (values.length > 0 || !sql.execRows) return { rows: await sql.query(text, values) };
      return { rows: await sql.execRows(text) };
    },
  };
}
