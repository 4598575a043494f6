// PostgreSQL's integrity-constraint violations, told apart by SQLSTATE (both drivers expose it as
// `code`; a wrapping error may carry the driver's in `cause`). What each one means for a client
// is decided in src/http/constraint-errors.ts.

export type ViolationKind = 'unique' | 'missingReference' | 'stillReferenced' | 'notNull' | 'check';

export interface ConstraintViolation {
  kind: ViolationKind;
  /** The constraint or index that refused the write, when the driver names it. */
  constraint: string | undefined;
}

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
}

function driverError(error: unknown): DriverError | undefined {
  for (const candidate of [error, (error as { cause?: unknown } | null)?.cause]) {
    const code = (candidate as DriverError | null | undefined)?.code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return candidate as DriverError;
  }
  return undefined;
}

/** The SQLSTATE of a failed query, if the error is one. */
export function sqlStateOf(error: unknown): string | undefined {
  return driverError(error)?.code as string | undefined;
}

/**
 * The constraint's name as the schema has it. On Citus a shard's constraint is named after it
 * with the shard's id (`tags_name_102126`: ids are six digits and more), and the error a worker
 * raises may name it in its message only.
 */
function constraintName(found: DriverError): string | undefined {
  const named =
    typeof found.constraint === 'string'
      ? found.constraint
      : typeof found.message === 'string'
        ? /constraint "([^"]+)"/.exec(found.message)?.[1]
        : undefined;
  return named?.replace(/_\d{6,}$/, '');
}

/** The constraint violation behind an error, or undefined when it is none. */
export function constraintViolationOf(error: unknown): ConstraintViolation | undefined {
  const found = driverError(error);
  if (!found) return undefined;
  const constraint = constraintName(found);
  switch (found.code) {
    case '23505':
      return { kind: 'unique', constraint };
    case '23503': {
      // "Key (…)=(…) is not present in table …" (an insert or update names a missing row) or
      // "… is still referenced from table …" (a delete of a row others use); without the detail
      // (Citus passes on a worker's message alone), "update or delete on table …" says the latter.
      const text = [found.detail, found.message].filter((t) => typeof t === 'string').join(' ');
      return {
        kind: /still referenced|^update or delete on table/.test(text)
          ? 'stillReferenced'
          : 'missingReference',
        constraint,
      };
    }
    case '23502':
      return { kind: 'notNull', constraint };
    case '23514':
      return { kind: 'check', constraint };
    default:
      return undefined;
  }
}
