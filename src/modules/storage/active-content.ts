// Asset types a browser would run rather than show: documents that may carry script (HTML, XHTML,
// SVG, any XML, which can embed XHTML or pull in XSLT) and JavaScript itself. Their bytes come
// from users and are served from the tenant's own origin, so they are sent as attachments: a
// browser that navigates to one saves it instead of rendering it as a page of that origin.
// <img src> still shows an SVG (images run no script), and every asset keeps nosniff and the
// sandbox CSP.

// The JavaScript MIME type essences of the WHATWG MIME Sniffing standard (§4.6), all of which
// a browser runs from <script src>.
const JAVASCRIPT = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

const DOCUMENTS = new Set(['text/html', 'application/xml', 'text/xml', 'text/xsl']);

const essence = (mimeType: string) => mimeType.split(';')[0]!.trim().toLowerCase();

/** Whether a browser runs assets of this MIME type from <script src> (or as a worker). */
export function isJavaScript(mimeType: string): boolean {
  return JAVASCRIPT.has(essence(mimeType));
}

/** Whether assets of this MIME type are active content, served as attachments. */
export function isActiveContent(mimeType: string): boolean {
  const type = essence(mimeType);
  // +xml covers XHTML, SVG, XSLT, Atom, RSS and every other XML vocabulary.
  return DOCUMENTS.has(type) || type.endsWith('+xml') || JAVASCRIPT.has(type);
}

// Data files (CSV, NDJSON: catalog exports among them) are for spreadsheets and tools: saved, not
// shown, so that a spreadsheet opens a CSV from the disk (whose formula cells the export has
// neutralised) rather than a browser tab of the tenant's origin.
const DATA_FILES = new Set([
  'text/csv',
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/jsonlines',
]);

/** Whether assets of this MIME type are served as attachments: active content and data files. */
export function isAttachment(mimeType: string): boolean {
  return isActiveContent(mimeType) || DATA_FILES.has(essence(mimeType));
}

// Fetch Metadata destinations that run what they load as script (the Fetch standard's
// "script-like" destinations).
const SCRIPT_DESTINATIONS = new Set([
  'script',
  'worker',
  'sharedworker',
  'serviceworker',
  'audioworklet',
  'paintworklet',
]);

/**
 * Whether a request is a page of the asset's own origin loading it as a script. No page of a
 * tenant's origin (console, sign-in, API docs) ever does, but Content-Disposition does not stop
 * <script src>, and a page whose CSP allows 'self' would run an uploaded script (assets of other
 * types are refused as scripts by the browser itself, under nosniff). Other origins (a shop
 * embedding its files) are their own CSP's business; clients without Fetch Metadata (curl, old
 * browsers) send neither header.
 */
export function isSameOriginScriptLoad(headers: Record<string, unknown>): boolean {
  return (
    headers['sec-fetch-site'] === 'same-origin' &&
    SCRIPT_DESTINATIONS.has(String(headers['sec-fetch-dest']))
  );
}
