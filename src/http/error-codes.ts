// The error codes that any route can answer (the modules list their own: AppModule.errorCodes),
// and the OpenAPI document's list of every code (src/domain/error-code-list.ts says how the lists
// are used and checked).
import type { ErrorCodes } from '../domain/error-code-list.ts';

export const httpErrorCodes = {
  BadRequest: {
    status: 400,
    meaning: 'The framework refused the request for a reason no other code names (or another 4xx).',
  },
  Conflict: { status: 409, meaning: 'The write would duplicate a row that exists already.' },
  DatabaseUnavailable: {
    status: 503,
    meaning: 'The database cannot be reached; nothing changed, send the request again later.',
  },
  DuplicateHost: { status: 400, meaning: 'The request has more than one Host header.' },
  EmptyBody: { status: 400, meaning: 'The operation needs a body and the request has none.' },
  ExpectationFailed: { status: 417, meaning: 'An Expect header other than 100-continue.' },
  HeadersTooLarge: {
    status: 431,
    meaning: "The request line and headers are longer than Node's 16 KiB.",
  },
  HistoryVersionNotFound: {
    status: 404,
    meaning: 'The resource has no entry of that version in its change history.',
  },
  IdMismatch: { status: 400, meaning: "The body's Id differs from the id in the path." },
  IdempotencyKeyInUse: {
    status: 409,
    meaning: 'A request with this Idempotency-Key is still running; retry after Retry-After.',
  },
  IdempotencyKeyReused: {
    status: 422,
    meaning: 'The Idempotency-Key was used before with another request.',
  },
  InUse: { status: 409, meaning: 'The row is still referenced by another.' },
  InsufficientPermission: {
    status: 403,
    meaning: "The member's roles do not allow this operation.",
  },
  InsufficientScope: { status: 403, meaning: "The token's scope does not cover this route." },
  InternalError: { status: 500, meaning: 'An unexpected failure of the server.' },
  InvalidContentLength: { status: 400, meaning: 'The Content-Length header is not a length.' },
  InvalidHistoryContinuation: {
    status: 400,
    meaning: 'The continuation of a change history page is not one issued for this query.',
  },
  InvalidIdempotencyKey: {
    status: 400,
    meaning: 'The Idempotency-Key header is empty, too long or not printable ASCII.',
  },
  InvalidToken: {
    status: 401,
    meaning: 'The bearer token is missing, malformed, expired or revoked.',
  },
  InvalidValue: {
    status: 400,
    meaning: 'A value the database cannot store, such as a NUL character in a text.',
  },
  JsonTooDeep: {
    status: 400,
    meaning: 'The JSON body nests arrays and objects deeper than any operation takes (32 levels).',
  },
  MalformedJson: { status: 400, meaning: 'The body is not valid JSON.' },
  MalformedRequest: { status: 400, meaning: "Node's HTTP parser refused the request." },
  MalformedUrl: { status: 400, meaning: 'The URL is not valid percent-encoded UTF-8.' },
  MissingHost: { status: 400, meaning: 'An HTTP/1.1 request without a Host header.' },
  NotFound: { status: 404, meaning: 'The resource the path names does not exist.' },
  PayloadTooLarge: { status: 413, meaning: 'The body is larger than the operation accepts.' },
  PreconditionFailed: {
    status: 412,
    meaning: "If-Match does not match the resource's current ETag.",
  },
  RateLimitExceeded: {
    status: 429,
    meaning: "The app's request budget is spent; retry after Retry-After.",
  },
  ReferenceNotFound: {
    status: 400,
    meaning: 'A row the request refers to is gone (deleted by a concurrent request).',
  },
  RequestTimeout: { status: 408, meaning: 'The request headers did not arrive in time.' },
  RouteNotFound: { status: 404, meaning: 'No operation answers this method and path.' },
  ShuttingDown: {
    status: 503,
    meaning: 'This server is stopping; send the request again.',
  },
  TenantNotFound: { status: 404, meaning: 'The host names no tenant of this server.' },
  UnsupportedApiVersion: {
    status: 406,
    meaning: 'The Accept header asks only for API versions this server does not have.',
  },
  UnsupportedContentEncoding: {
    status: 415,
    meaning: 'The body is encoded with a Content-Encoding the server does not read.',
  },
  UnsupportedMediaType: {
    status: 415,
    meaning: 'The body has a Content-Type the operation does not take.',
  },
  UrlTooLong: { status: 414, meaning: 'A part of the URL is longer than the server accepts.' },
  ValidationFailed: {
    status: 400,
    meaning: 'The input breaks its schema or a rule; Errors names the fields.',
  },
} as const satisfies ErrorCodes;

/** Each status's codes, the statuses in order: the lists merged (a code in two lists once). */
export function errorCodesByStatus(lists: readonly ErrorCodes[]): Map<number, string[]> {
  const byStatus = new Map<number, Set<string>>();
  for (const list of lists)
    for (const [code, { status }] of Object.entries(list))
      for (const one of [status].flat()) {
        if (!byStatus.has(one)) byStatus.set(one, new Set());
        byStatus.get(one)!.add(code);
      }
  return new Map(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]),
  );
}

interface DocumentWithErrorBody {
  components?: { schemas?: Record<string, { properties?: Record<string, object> }> };
}

/** The OpenAPI document's ErrorBody.Code lists every code, by status. */
export function listErrorCodes<T extends object>(document: T, lists: readonly ErrorCodes[]): T {
  const errorBody = (document as DocumentWithErrorBody).components?.schemas?.ErrorBody;
  const code = errorBody?.properties?.Code;
  if (!errorBody?.properties || !code) return document;
  const lines = [...errorCodesByStatus(lists)].map(
    ([status, codes]) => `${status}: ${codes.join(', ')}`,
  );
  errorBody.properties.Code = {
    ...code,
    description:
      'Stable machine-readable error code (docs/api.md, "Error codes", says what each means). ' +
      `By status:\n${lines.join('\n')}`,
  };
  return document;
}
