// How deep a JSON text nests arrays and objects, found before it is parsed. JSON.parse builds
// every level of a body such as `[[[[…]]]]` before a schema can refuse it: a MiB of nested
// arrays cost 7–10 times the CPU of a flat MiB (issue 52). One pass over the text, allocating
// nothing, stops at the first level too deep: 2–4 ms on a MiB where JSON.parse takes 6–70 ms.

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

/** The index of the quote that closes the string opened at `open` (text.length when none). */
function endOfString(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    // Escaped when an odd number of backslashes stands before it. Each backslash belongs to the
    // run before one quote only, so the scan stays linear.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/**
 * Whether the text nests arrays and objects more than `max` levels deep; brackets inside strings
 * do not count. It does not check that the text is JSON: JSON.parse does, after.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) i = endOfString(text, i);
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
