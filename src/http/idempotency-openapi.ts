// How the OpenAPI document shows the Idempotency-Key header: an optional header parameter of
// every POST and PATCH that a token calls (the routes where src/http/idempotency.ts applies).
import { MAX_KEY_LENGTH } from './idempotency-key.ts';
import type { RouteAccess } from './route-access.ts';

export function takesIdempotencyKey(access: RouteAccess, method: string): boolean {
  return (
    access !== 'operator' && access !== 'anonymous' && (method === 'POST' || method === 'PATCH')
  );
}

const HEADER = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH + 2,
  description:
    'Makes the request safe to retry (IETF httpapi Idempotency-Key draft): a unique key per ' +
    `request, 1 to ${MAX_KEY_LENGTH} visible ASCII characters (a UUID, say), bare or as a quoted ` +
    'structured-field string. The same key with the same request within the key lifetime ' +
    '(24 h by default) answers the stored status, headers and body without running again ' +
    '(with Idempotent-Replayed: true); with another request 422 IdempotencyKeyReused; while the ' +
    'first request still runs 409 IdempotencyKeyInUse. Keys are per tenant and caller (the app, ' +
    'or the console member of a member token). 5xx answers ' +
    'are not stored. A malformed key is 400 InvalidIdempotencyKey.',
};

/** A route's headers schema with the Idempotency-Key parameter added. */
export function idempotencyKeyHeaderSchema(headers: unknown): object {
  const existing = (headers ?? {}) as { properties?: Record<string, unknown> };
  return {
    type: 'object',
    ...existing,
    properties: { ...(existing.properties ?? {}), 'Idempotency-Key': HEADER },
  };
}
