// The Idempotency-Key request header (IETF httpapi draft): a Structured Field String
// (`"8e03978e-…"`), or, as most clients send it (Stripe's form), the bare text of the key.
// Both name the same key. Anything else is 400 before the request runs.
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;

/** Visible ASCII except `"`, `,` and `\`: a bare key cannot be mistaken for a list or a string. */
const BARE_KEY = /^[\x21\x23-\x2B\x2D-\x5B\x5D-\x7E]+$/;
/** RFC 8941 sf-string: printable ASCII in quotes, `"` and `\` escaped by `\`. */
const QUOTED_KEY = /^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*)"$/;

export function invalidIdempotencyKey(reason: string): ApiError {
  return new ApiError(
    400,
    'InvalidIdempotencyKey',
    `The Idempotency-Key header is not valid: ${reason}. Send one key of 1 to ${MAX_KEY_LENGTH} visible ASCII characters, such as a UUID.`,
  );
}

/** The key a header value names; throws the 400 for a malformed, empty, long or repeated one. */
export function parseIdempotencyKey(value: string | string[]): string {
  if (Array.isArray(value)) throw invalidIdempotencyKey('it is sent more than once');
  const text = value.trim();
  const quoted = QUOTED_KEY.exec(text);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : text;
  if (!quoted && !BARE_KEY.test(key)) {
    // Node joins repeated headers with ", ".
    throw invalidIdempotencyKey(
      key === ''
        ? 'it is empty'
        : key.includes(',')
          ? 'it is sent more than once, or as a list'
          : 'it holds characters other than visible ASCII, or an unterminated quote',
    );
  }
  if (key.length === 0) throw invalidIdempotencyKey('it is empty');
  if (key.length > MAX_KEY_LENGTH)
    throw invalidIdempotencyKey(`it is longer than ${MAX_KEY_LENGTH} characters`);
  return key;
}
