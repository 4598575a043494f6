// A database handle that records every statement the app sends through it, with its parameters
// (in a transaction too), for tests that look at the statements themselves: the Citus router test
// explains each one.
import type { DatabaseHandle, RawSql } from '../../src/db/connection/database.ts';

export interface RecordedStatement {
  text: string;
  params: unknown[];
  /** A script of several statements without parameters (exec): not explained one by one. */
  script: boolean;
  /** The database's error, when the statement failed. */
  error?: string;
}

/** Records the statement, and its error if it fails. */
function noted<T>(into: Recorder, statement: RecordedStatement, run: () => Promise<T>) {
  if (!into.only()) return run();
  into.statements.push(statement);
  return run().catch((error: unknown) => {
    statement.error = error instanceof Error ? error.message : String(error);
    throw error;
  });
}

interface Recorder {
  statements: RecordedStatement[];
  /** Whether to record a statement sent now. */
  only: () => boolean;
}

function recording(sql: RawSql, into: Recorder): RawSql {
  return {
    query(text, params = []) {
      return noted(into, { text, params, script: false }, () => sql.query(text, params));
    },
    prepared(name, text, params) {
      return noted(into, { text, params, script: false }, () => sql.prepared(name, text, params));
    },
    exec(script) {
      return noted(into, { text: script, params: [], script: true }, () => sql.exec(script));
    },
  };
}

/**
 * `handle`, recording into `statements` each statement sent through it while `only()` holds
 * (always, by default).
 */
export function recordingDatabase(
  handle: DatabaseHandle,
  statements: RecordedStatement[],
  only: () => boolean = () => true,
): DatabaseHandle {
  const into: Recorder = { statements, only };
  return {
    ...recording(handle, into),
    engine: handle.engine,
    url: handle.url,
    get asyncCommit() {
      return recording(handle.asyncCommit, into);
    },
    execRows(script) {
      return noted(into, { text: script, params: [], script: true }, () => handle.execRows(script));
    },
    rawTransaction: (fn, options) =>
      handle.rawTransaction((sql) => fn(recording(sql, into)), options),
    copyFrom(target, data) {
      const text = `copy ${target} from stdin (format binary)`;
      return noted(into, { text, params: [], script: true }, () => handle.copyFrom(target, data));
    },
    close: () => handle.close(),
  };
}
