// Request bodies in a content coding (Content-Encoding: gzip, deflate, br …) are refused with 415
// UnsupportedContentEncoding and `Accept-Encoding: identity` (RFC 9110 §15.5.16), rather than
// decoded: every body this API takes is small JSON or a form (compression gains little there) or
// a file sent as its own bytes, and decoding would put a decompressor, and the defence against
// compression bombs, on the path of every body. Without this, a compressed body was read as if
// it were plain (a JSON body: 400 MalformedJson; raw bytes: taken as they came).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

const unsupportedContentEncoding = (coding: string) =>
  new ApiError(
    415,
    'UnsupportedContentEncoding',
    `Request bodies are taken without a content coding; send this one without Content-Encoding: ${coding.slice(0, 64)}.`,
    { headers: { 'Accept-Encoding': 'identity' } },
  );

/** Whether the request carries a body (a non-zero Content-Length, or chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

export function registerContentEncoding(app: FastifyInstance): void {
  // preParsing: after the token is checked (401 before 415, as for a wrong Content-Type) and
  // before any body is read. One header read for the requests without the header.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const coding = request.headers['content-encoding'];
    if (coding === undefined || !hasBody(request)) return done(null, payload);
    const name = coding.trim().toLowerCase();
    if (name === '' || name === 'identity') return done(null, payload);
    done(unsupportedContentEncoding(coding));
  });
}
