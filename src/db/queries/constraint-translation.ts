// A service's own errors for the constraint violations a concurrent write can still cause after
// its checks (a duplicate name, a row deleted between the check and the insert). Violations it
// names no error for keep the general answer (src/http/constraint-errors.ts).
import { constraintViolationOf, type ConstraintViolation } from './constraint-violation.ts';

export interface ConstraintErrors {
  /** A unique index refused the write (a duplicate name, SKU, key …). */
  unique?: (violation: ConstraintViolation) => Error;
  /** An insert or update refers to a row that does not exist (any more). */
  missingReference?: (violation: ConstraintViolation) => Error;
  /** A delete or update would leave rows referring to this one. */
  stillReferenced?: (violation: ConstraintViolation) => Error;
}

/** Runs a write and answers its constraint violations with the given errors. */
export async function translatingConstraints<T>(
  write: () => Promise<T>,
  errors: ConstraintErrors,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const violation = constraintViolationOf(error);
    const translate = violation && errors[violation.kind as keyof ConstraintErrors];
    if (violation && translate) throw translate(violation);
    throw error;
  }
}
