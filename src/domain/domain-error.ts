// What a service answers when it refuses: the kind of refusal, a stable machine code, a text for
// people and, for refused input, the fields at fault. No status codes or headers: the HTTP layer
// turns each kind into its answer once (src/http/domain-errors.ts), and a CLI or a job reads the
// same error without knowing HTTP.

/** One field of refused input and what is wrong with it (contract §4, error body). */
export interface FieldError {
  Field: string;
  Message: string;
}

export type DomainErrorKind =
  /** The input breaks a rule (a malformed value, an unknown reference, a weak password …). */
  | 'invalid'
  /** The caller's credentials are missing or no longer valid. */
  | 'unauthenticated'
  /** The caller is known but may not do this. */
  | 'forbidden'
  | 'not-found'
  /** The request contradicts the current state (a duplicate, a row still in use …). */
  | 'conflict'
  /** The caller's expected version of a resource is not its current one. */
  | 'precondition-failed'
  /** The input is larger than allowed; it was refused while being read, so the rest is unread. */
  | 'too-large'
  /** No requested part of a content lies inside it (see `contentSize`). */
  | 'range-not-satisfiable'
  /** The caller asks too often (see `retryAfterSeconds`). */
  | 'rate-limited'
  /** Something the service needs is out of reach for now (see `retryAfterSeconds`). */
  | 'unavailable';

export interface DomainErrorDetails {
  /** The fields at fault, for refused input. */
  errors?: FieldError[];
  /** rate-limited, unavailable: when asking again may succeed. */
  retryAfterSeconds?: number;
  /** range-not-satisfiable: the size in bytes of the content the ranges missed. */
  contentSize?: number;
  /** unauthenticated: the caller presented a token, and that token is not (any more) valid. */
  invalidToken?: boolean;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly contentSize: number | undefined;
  readonly invalidToken: boolean;

  constructor(
    kind: DomainErrorKind,
    code: string,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.errors = details.errors;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.contentSize = details.contentSize;
    this.invalidToken = details.invalidToken ?? false;
  }
}

/** Refused input: the code, the text and, when known, the fields at fault. */
export const invalid = (code: string, message: string, errors?: FieldError[]) =>
  new DomainError('invalid', code, message, errors ? { errors } : {});

/** One field of the input is refused: `ValidationFailed` naming it. */
export const invalidField = (field: string, message: string) =>
  invalid('ValidationFailed', `${field}: ${message}`, [{ Field: field, Message: message }]);

/** `what` names the missing thing as a sentence begins: "Item 12", "The asset". */
export const notFound = (what: string) =>
  new DomainError('not-found', 'NotFound', `${what} was not found.`);

export const conflict = (code: string, message: string) =>
  new DomainError('conflict', code, message);
