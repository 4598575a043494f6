// Serving asset bytes under AssetUrl (contract §5.4): no token, an unguessable key, ETag with 304
// on If-None-Match, Cache-Control, and Range (206, several ranges as multipart/byteranges up to a
// cap, 416 when none is satisfiable), streamed from the blob store.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { BlobMissingError, type BlobStore, type ByteRange } from './blob-store.ts';
import { isAttachment, isJavaScript, isSameOriginScriptLoad } from './active-content.ts';
import type { AssetContent } from './asset-service.ts';
import { assetNotScriptSource, rangeNotSatisfiable } from './storage-errors.ts';

/** The content under a key never changes; a day keeps deleted assets from living long in caches. */
export const ASSET_CACHE_CONTROL = 'public, max-age=86400';
// Asset bytes come from users: never run as a page of the API's origin (an SVG with a script).
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const etagOf = (content: AssetContent) => `"${content.sha256}"`;
const keyOf = (content: AssetContent) => ({ tenantId: content.tenantId, sha256: content.sha256 });

function matchesAny(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Inline, except for active content (HTML, SVG, XML, JavaScript) and data files (CSV, NDJSON): a
 * browser saves those instead.
 */
function contentDisposition(content: AssetContent): string {
  const { fileName } = content;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const type = isAttachment(content.mimeType) ? 'attachment' : 'inline';
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export interface ContentOptions {
  /** Most ranges one request may have after combining (ASSET_MAX_RANGES); more: the whole body. */
  maxRanges: number;
}

/** Sends the asset's bytes, or a part of them, as the request's headers ask. */
export async function sendAssetContent(
  request: FastifyRequest,
  reply: FastifyReply,
  store: BlobStore,
  content: AssetContent,
  options: ContentOptions,
): Promise<FastifyReply> {
  if (isJavaScript(content.mimeType)) {
    // The answer depends on these two headers: a browser's cache must not hand an image load's
    // 200 to a script load of the same URL.
    const vary = reply.getHeader('vary');
    reply.header('Vary', `${vary ? `${String(vary)}, ` : ''}Sec-Fetch-Site, Sec-Fetch-Dest`);
    if (isSameOriginScriptLoad(request.headers)) throw assetNotScriptSource();
  }
  const etag = etagOf(content);
  // Public bytes meant for shops' own pages (<img>, <video>) on other origins.
  reply
    .header('ETag', etag)
    .header('Cache-Control', ASSET_CACHE_CONTROL)
    .header('Cross-Origin-Resource-Policy', 'cross-origin');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matchesAny(ifNoneMatch, etag)) {
    return reply.code(304).send();
  }
  const ranges = requestedRanges(request, etag, content.size, options.maxRanges);
  const head = request.method === 'HEAD';
  // The bytes of the whole or of one range, opened before the headers that describe them.
  const single = ranges === undefined || ranges.length === 1;
  const body =
    head || !single || content.size === 0
      ? undefined
      : await open(reply, store, content, ranges?.[0] ?? { start: 0, end: content.size - 1 });
  reply
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    .header('Content-Disposition', contentDisposition(content));
  if (ranges === undefined) {
    reply.code(200).header('Content-Type', content.mimeType).header('Content-Length', content.size);
    return reply.send(body);
  }
  if (ranges.length === 1) {
    const [range] = ranges as [ByteRange];
    reply
      .code(206)
      .header('Content-Type', content.mimeType)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${content.size}`)
      .header('Content-Length', range.end - range.start + 1);
    return reply.send(body);
  }
  const boundary = randomBytes(12).toString('hex');
  const partHeaders = ranges.map(
    (range) =>
      `\r\n--${boundary}\r\nContent-Type: ${content.mimeType}\r\n` +
      `Content-Range: bytes ${range.start}-${range.end}/${content.size}\r\n\r\n`,
  );
  const closing = `\r\n--${boundary}--\r\n`;
  const length =
    partHeaders.reduce((sum, text) => sum + Buffer.byteLength(text), 0) +
    ranges.reduce((sum, range) => sum + range.end - range.start + 1, 0) +
    closing.length;
  reply
    .code(206)
    .header('Content-Type', `multipart/byteranges; boundary=${boundary}`)
    .header('Content-Length', length);
  if (head) return reply.send();
  async function* parts() {
    for (const [index, range] of ranges!.entries()) {
      yield Buffer.from(partHeaders[index]!);
      for await (const chunk of await store.read(keyOf(content), range)) yield chunk as Buffer;
    }
    yield Buffer.from(closing);
  }
  return reply.send(Readable.from(parts()));
}

/**
 * Opens the bytes of a range. A blob gone since the lookup (BlobMissingError, which the route
 * answers with 404) takes the caching headers with it: nothing may keep that answer.
 */
async function open(
  reply: FastifyReply,
  store: BlobStore,
  content: AssetContent,
  range: ByteRange,
): Promise<Readable> {
  try {
    return await store.read(keyOf(content), range);
  } catch (error) {
    if (error instanceof BlobMissingError) reply.removeHeader('ETag').removeHeader('Cache-Control');
    throw error;
  }
}

/**
 * The ranges to send, overlapping and adjacent ones combined; undefined for the whole body (no
 * Range, a Range that is not bytes or not well-formed, which RFC 9110 says to ignore, an If-Range
 * that no longer matches, or more ranges than maxRanges); 416 when none of them is in the body.
 */
function requestedRanges(
  request: FastifyRequest,
  etag: string,
  size: number,
  maxRanges: number,
): ByteRange[] | undefined {
  const header = request.headers.range;
  if (header === undefined) return undefined;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && String(ifRange).trim() !== etag) return undefined;
  const parsed = parseRange(size, header, { combine: true });
  if (parsed === -2) return undefined;
  if (parsed === -1 || size === 0) throw rangeNotSatisfiable(size);
  if (parsed.type !== 'bytes') return undefined;
  // Each range is a read of the blob store (an S3 request on S3): thousands of one-byte ranges
  // would cost far more than the whole body. RFC 9110 §14.2 lets a server ignore such a Range;
  // like nginx's max_ranges, the whole body is sent, which no client can take for an error.
  if (parsed.length > maxRanges) return undefined;
  return parsed.map(({ start, end }) => ({ start, end }));
}
