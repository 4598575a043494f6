// Whether an upload's head starts as an SVG document. A scanner, not a regular expression: the
// prolog an SVG may open with (a byte order mark, an XML declaration, comments, processing
// instructions, a doctype) is skipped construct by construct with indexOf from where each one
// starts, so the time is linear in the bytes read whatever they hold. (A regular expression with
// a repeated lazy comment group backtracked exponentially on `<!---->` repeated: 25 of them, 2.3 s
// of a blocked event loop.)

const BYTE_ORDER_MARK = 0xfeff;

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function startsWithIgnoringCase(text: string, prefix: string, at: number): boolean {
  return text.slice(at, at + prefix.length).toLowerCase() === prefix;
}

/** Where a doctype that starts at `at` ends (past its `>`), its internal subset skipped; -1 when it does not end in `text`. */
function doctypeEnd(text: string, at: number): number {
  const close = text.indexOf('>', at);
  const subset = text.indexOf('[', at);
  if (subset < 0 || (close >= 0 && close < subset)) return close < 0 ? -1 : close + 1;
  const subsetEnd = text.indexOf(']', subset);
  if (subsetEnd < 0) return -1;
  const end = text.indexOf('>', subsetEnd);
  return end < 0 ? -1 : end + 1;
}

/** Where the prolog construct that starts at `at` ends; -1 when none starts there or it does not end in `text`. */
function prologConstructEnd(text: string, at: number): number {
  if (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    return end < 0 ? -1 : end + 3;
  }
  if (text.startsWith('<?', at)) {
    const end = text.indexOf('?>', at + 2);
    return end < 0 ? -1 : end + 2;
  }
  if (startsWithIgnoringCase(text, '<!doctype', at) && isXmlSpace(text.charCodeAt(at + 9))) {
    return doctypeEnd(text, at + 9);
  }
  return -1;
}

/**
 * True when `text`, after its prolog, opens an `<svg` element (followed by a space, `>` or `/`).
 * A prolog that does not end within `text` (the head read of an upload) is not an SVG start.
 */
export function startsAsSvg(text: string): boolean {
  let at = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  for (;;) {
    while (at < text.length && isXmlSpace(text.charCodeAt(at))) at++;
    if (startsWithIgnoringCase(text, '<svg', at)) {
      const next = text.charCodeAt(at + 4);
      return isXmlSpace(next) || next === 0x3e /* > */ || next === 0x2f; /* / */
    }
    const end = prologConstructEnd(text, at);
    if (end < 0) return false;
    at = end;
  }
}
