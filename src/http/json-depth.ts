// How deep a JSON body nests arrays and objects, measured while it arrives. JSON.parse builds
// every level of a body such as `[[[[…]]]]` before a schema can refuse it: a MiB of nested
// arrays cost 7–10 times the CPU of a flat MiB (issue 52). The gauge reads each chunk of bytes as
// it comes, allocating nothing, so the request is refused at the first level too deep, before
// the rest of the body is read or held. Brackets, quotes and backslashes are single UTF-8 bytes
// and never part of a multi-byte character, so bytes can be read one by one, across chunks.

/**
 * The deepest nesting a request body may have. Every request schema is at most 4 levels deep
 * (test/http/json-depth.test.ts checks the document's against this); 32 leaves room for the
 * fields a schema takes as any JSON (read-only fields sent back, which are ignored).
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** What a byte outside a string does: one table read a byte, instead of five comparisons. */
const OTHER = 0;
const OPENS = 1;
const CLOSES = 2;
const STARTS_STRING = 3;
const ROLE = new Uint8Array(256);
ROLE[OPEN_ARRAY] = ROLE[OPEN_OBJECT] = OPENS;
ROLE[CLOSE_ARRAY] = ROLE[CLOSE_OBJECT] = CLOSES;
ROLE[QUOTE] = STARTS_STRING;

/**
 * Follows the nesting of a JSON text fed in chunks; brackets inside strings do not count. It does
 * not check that the text is JSON: JSON.parse does, after.
 */
export class JsonDepthGauge {
  private readonly max: number;
  private depth = 0;
  private inString = false;
  /** The last byte read was a backslash inside a string (its escape may begin the next chunk). */
  private escaped = false;

  constructor(max: number) {
    this.max = max;
  }

  /** Reads the next bytes; true once the text has nested more than `max` levels. */
  tooDeep(bytes: Buffer): boolean {
    let { depth, inString, escaped } = this;
    // Where the next backslash and the next quote are (-1: none left in this chunk; -2: not yet
    // looked up), found by memchr as a string's bytes are skipped and looked up again only once
    // passed, so that each byte is searched at most once for each: linear in the chunk.
    let backslash = -2;
    let quote = -2;
    let i = 0;
    while (i < bytes.length) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        if (backslash !== -1 && backslash < i) backslash = bytes.indexOf(BACKSLASH, i);
        if (quote !== -1 && quote < i) quote = bytes.indexOf(QUOTE, i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          escaped = true;
          i = backslash + 1;
        } else if (quote !== -1) {
          inString = false;
          i = quote + 1;
        } else i = bytes.length;
        continue;
      }
      const role = ROLE[bytes[i++]!];
      if (role === OTHER) continue;
      if (role === OPENS) {
        if (++depth > this.max) return true;
      } else if (role === CLOSES) depth--;
      else inString = true;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return false;
  }
}

/** Whether a whole text nests arrays and objects more than `max` levels deep. */
export function nestsDeeperThan(text: string, max: number): boolean {
  return new JsonDepthGauge(max).tooDeep(Buffer.from(text));
}
