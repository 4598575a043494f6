// Every error the API answers with, as one class: status, a stable machine code, a human text
// and, for validation failures, the fields at fault (contract §4, error body). The HTTP layer
// raises these itself (406, 415, 401 …); services throw DomainErrors (src/domain), which
// domain-errors.ts turns into these.
import type { FieldError } from '../domain/domain-error.ts';

export type { FieldError };

export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  /** How many more errors there were than `errors` lists (error-body.ts lists a bounded few). */
  readonly errorsOmitted: number;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options: {
      errors?: FieldError[];
      errorsOmitted?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = options.errors;
    this.errorsOmitted = options.errorsOmitted ?? 0;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (code: string, message: string, errors?: FieldError[]) =>
  new ApiError(400, code, message, errors ? { errors } : {});

export const preconditionFailed = () =>
  new ApiError(
    412,
    'PreconditionFailed',
    'The resource has changed since it was read (If-Match does not match its ETag).',
  );
