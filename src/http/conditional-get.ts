// Conditional GET (RFC 9110 §13.1.2): a GET or HEAD whose answer carries an ETag is answered 304
// Not Modified, with no body, when its If-None-Match names that ETag (or is `*`). The handler
// runs as usual and the answer it made is replaced: every route that sends an ETag honours the
// header without code of its own, and the document shows the header and the 304 on each of them.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Readable } from 'node:stream';

/** Whether an If-None-Match names this ETag, by the weak comparison RFC 9110 §13.1.2 asks for. */
export function matchesEtag(header: string, etag: string): boolean {
  const wanted = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === wanted);
}

const IF_NONE_MATCH = {
  type: 'string',
  description:
    'The ETag of the version the client holds (several, comma-separated, or `*`): 304 Not ' +
    'Modified with no body when it is still the current one.',
} as const;

interface RouteSchemaParts {
  response?: Record<string, { headers?: Record<string, unknown> } | undefined>;
  headers?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
}

/** Whether a GET route's 200 answer documents an ETag (and no 304 of its own). */
function sendsEtag(route: RouteOptions): boolean {
  const methods = [route.method].flat();
  if (!methods.includes('GET') || route.schema?.hide) return false;
  const response = (route.schema as RouteSchemaParts | undefined)?.response;
  const headers = response?.[200]?.headers ?? {};
  return response?.[304] === undefined && Object.keys(headers).some((h) => /^etag$/i.test(h));
}

export function registerConditionalGet(app: FastifyInstance): void {
  // The document: If-None-Match as a header parameter, and the 304 with the answer's ETag.
  app.addHook('onRoute', (route) => {
    if (!sendsEtag(route)) return;
    const schema = route.schema as RouteSchemaParts;
    const headers = schema.headers ?? { type: 'object', properties: {} };
    const etag = schema.response![200]!.headers!;
    route.schema = {
      ...route.schema,
      headers: {
        ...headers,
        properties: { ...headers.properties, 'If-None-Match': IF_NONE_MATCH },
      },
      response: {
        ...schema.response,
        304: {
          type: 'null',
          description: 'Not modified: If-None-Match names the current ETag (no body)',
          headers: etag,
        },
      },
    };
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch === undefined || reply.statusCode !== 200) return done(null, payload);
    if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
    const etag = reply.getHeader('etag');
    if (typeof etag !== 'string' || !matchesEtag(ifNoneMatch, etag)) return done(null, payload);
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    // A HEAD's payload goes on to Fastify's own HEAD hook, which measures and drops it: its
    // Content-Length is then the 200's, which RFC 9110 §8.6 allows on a 304 (and a 0 it would
    // set for no payload is not).
    if (request.method === 'HEAD') return done(null, payload);
    if (payload instanceof Readable) payload.destroy();
    done(null, null);
  });
}
