// PostgreSQL constraint violations the catalog turns into 400/409 when a concurrent write
// slips past the service's own checks (both drivers expose the SQLSTATE as `code`).
import type { ApiError } from '../../http/errors.ts';

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

export const isUniqueViolation = (error: unknown) => codeOf(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === '23503';

export interface ConstraintErrors {
  /** A unique index refused the write (a duplicate name, SKU, key …). */
  unique?: () => ApiError;
  /** A foreign key refused it (the row is still referenced, or refers to a missing one). */
  foreignKey?: () => ApiError;
}

/** Runs a write and answers its constraint violations with the given API errors. */
export async function translatingConstraints<T>(
  write: () => Promise<T>,
  errors: ConstraintErrors,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (errors.unique && isUniqueViolation(error)) throw errors.unique();
    if (errors.foreignKey && isForeignKeyViolation(error)) throw errors.foreignKey();
    throw error;
  }
}
