// The one place where a service's refusal becomes an HTTP answer: each kind of DomainError has
// its status here, and the neutral facts it carries become headers.
import { DomainError, type DomainErrorKind } from '../domain/domain-error.ts';
import { ApiError } from './errors.ts';

export const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  'too-large': 413,
  'range-not-satisfiable': 416,
  'rate-limited': 429,
  unavailable: 503,
};

/** The challenge of a 401 for a token that is not (any more) valid (RFC 6750 §3). */
export function invalidTokenChallenge(description: string): string {
  return `Bearer error="invalid_token", error_description="${description.replaceAll('"', "'")}"`;
}

function headersOf(error: DomainError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error.contentSize !== undefined) headers['Content-Range'] = `bytes */${error.contentSize}`;
  if (error.invalidToken) headers['WWW-Authenticate'] = invalidTokenChallenge(error.message);
  // The input was refused while being read: the rest of it is still on the connection (read and
  // dropped before the connection closes: lingering-close.ts).
  if (error.kind === 'too-large') headers.Connection = 'close';
  return headers;
}

export function apiErrorOf(error: DomainError): ApiError {
  return new ApiError(DOMAIN_ERROR_STATUS[error.kind], error.code, error.message, {
    ...(error.errors ? { errors: error.errors } : {}),
    headers: headersOf(error),
  });
}

/** The API's answer to an error a service or the HTTP layer raised; undefined for any other. */
export function knownApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return apiErrorOf(error);
  return undefined;
}
