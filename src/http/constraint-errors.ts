// Constraint violations as the contract's errors. A service checks what it can before writing
// and names its own errors for the violations a concurrent write can still cause (a duplicate
// name, a row deleted between the check and the insert; src/db/queries/constraint-translation.ts);
// whatever it does not name gets the general answer here, so a violation is never a 500: a
// missing referenced row is 400, a duplicate or a row still in use is 409.
import { constraintViolationOf } from '../db/queries/constraint-violation.ts';
import { ApiError } from './errors.ts';

/** The contract's error for a constraint violation nobody named a specific error for. */
export function generalConstraintError(error: unknown): ApiError | undefined {
  const violation = constraintViolationOf(error);
  if (!violation) return undefined;
  switch (violation.kind) {
    case 'unique':
      return new ApiError(409, 'Conflict', 'The request conflicts with data that exists already.');
    case 'missingReference':
      return new ApiError(
        400,
        'ReferenceNotFound',
        'The request refers to a resource that does not exist (it may just have been deleted).',
      );
    case 'stillReferenced':
      return new ApiError(
        409,
        'InUse',
        'The resource is still used by others; remove those first.',
      );
    default:
      return new ApiError(400, 'InvalidValue', 'A value in the request cannot be stored.');
  }
}
