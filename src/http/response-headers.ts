// The response headers the OpenAPI document shows. A route names the headers of its own answers
// in its response schema (`headers`, as @fastify/swagger reads them): `ETag`, `Location`,
// `Content-Range`… A header the answer always carries is `required: true`, a boolean as on the
// OpenAPI Header Object; @fastify/swagger nests a header's definition in the header's `schema`,
// so the document's last pass (finishResponses) lifts `required` out of it. The headers that
// follow from the route's kind rather than from the route (rate limits, Retry-After on 429 and
// 503, Idempotent-Replayed) are defined once under components.headers and referenced by that pass.

/** A response header as a route schema names it. */
export interface ResponseHeader {
  type: 'string' | 'integer';
  description: string;
  required?: boolean;
  format?: string;
  minimum?: number;
}

export type ResponseHeaders = Record<string, ResponseHeader>;

export const ETAG: ResponseHeaders = {
  ETag: {
    type: 'string',
    required: true,
    description:
      'The version of the resource answered; send it as If-Match to make a change conditional.',
  },
};

export const LOCATION: ResponseHeaders = {
  Location: {
    type: 'string',
    format: 'uri-reference',
    required: true,
    description: 'The path of what was created.',
  },
};

/** A response schema with headers added (the schema itself, to Fastify's serializer). */
export function withHeaders<T extends object>(
  schema: T,
  ...headers: ResponseHeaders[]
): T & { headers: ResponseHeaders } {
  const existing = (schema as { headers?: ResponseHeaders }).headers ?? {};
  return { ...schema, headers: Object.assign({}, existing, ...headers) as ResponseHeaders };
}

type HeaderObject = { description: string; required?: boolean; schema: object };

/** The headers defined once, under components.headers. */
export const COMPONENT_HEADERS: Record<string, HeaderObject> = {
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Limit': {
    description:
      "The requests the budget allows in its window: the app's per minute (APP_RATE_LIMITS) " +
      "or, through the integration gateway, the endpoint tier's per second.",
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'The requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window starts again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description:
      'true when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': {
    description:
      'The Bearer challenge (RFC 6750 §3) when the token is missing or not valid (not on the ' +
      "integration gateway's InvalidSubscriptionKey).",
    schema: { type: 'string' },
  },
};

// Answers given before the operation runs, or of a failed one, are not stored under the key.
const NOT_STORED = ['401', '403', '406', '413', '415', '422', '429', '500', '503'];
const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/headers/${name}` });
// Only IdempotencyKeyInUse among the 409s carries it, so it is not required there.
const RETRY_IN_USE = {
  description: 'With IdempotencyKeyInUse: seconds to wait before sending the request again.',
  schema: { type: 'integer', minimum: 0 },
};
const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

interface AnswerObject {
  headers?: Record<string, Record<string, unknown>>;
  content?: Record<string, { schema?: { $ref?: string } }>;
}
interface Operation {
  security?: unknown[];
  responses?: Record<string, AnswerObject>;
}

const isErrorBody = (response: AnswerObject) =>
  response.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorBody';

// A bearer token, not the app credentials of the token endpoints (HTTP Basic).
const takesToken = (operation: Operation) =>
  operation.security?.some((requirement) => 'bearer' in (requirement as object)) ?? false;
const replaysAnswers = (method: string, operation: Operation) =>
  takesToken(operation) && (method === 'post' || method === 'patch');

/** The headers an answer of this status has because of the operation's kind. */
function standardHeaders(
  method: string,
  status: string,
  operation: Operation,
  response: AnswerObject,
): string[] {
  const withToken = takesToken(operation);
  const names: string[] = [];
  // Counted requests carry the budget's state (app limits, and every gateway call).
  if (withToken && (status.startsWith('2') || status === '429')) names.push(...RATE_LIMIT);
  // Every 429, and every 503 in the error body (not the health probe's own 503).
  if (status === '429' || (status === '503' && isErrorBody(response))) names.push('Retry-After');
  if (status === '401' && withToken) names.push('WWW-Authenticate');
  // A stored answer under an Idempotency-Key is replayed with this header (2xx and 4xx alike).
  if (replaysAnswers(method, operation) && !NOT_STORED.includes(status))
    names.push('Idempotent-Replayed');
  return names;
}

/**
 * The document's last pass over the answers: a header's `required` is lifted onto its Header
 * Object, and the standard headers are referenced on the answers they belong to.
 */
export function finishResponses<T extends object>(document: T): T {
  const openapi = document as {
    components?: { headers?: Record<string, unknown> };
    paths?: Record<string, Record<string, Operation>>;
  };
  openapi.components = { ...openapi.components, headers: COMPONENT_HEADERS };
  for (const item of Object.values(openapi.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers: Record<string, Record<string, unknown>> = {};
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          const { required, ...schema } = (header.schema ?? {}) as { required?: unknown };
          headers[name] = typeof required === 'boolean' ? { ...header, required, schema } : header;
        }
        for (const name of standardHeaders(method, status, operation, response))
          headers[name] ??= ref(name);
        if (status === '409' && replaysAnswers(method, operation))
          headers['Retry-After'] ??= RETRY_IN_USE;
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
    }
  }
  return document;
}
