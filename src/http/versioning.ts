// Accept-header versioning (contract §2): application/vnd.{vendor}.api-v4-0 (or v4_0),
// optionally with other media ranges. Missing, */* or application/json means the latest.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { routeAccess } from './route-access.ts';

export const SUPPORTED_VERSIONS = ['4.0'] as const;
export const LATEST_VERSION = '4.0';

const VENDOR_MEDIA_TYPE = /^application\/vnd\.[a-z0-9][a-z0-9.+-]*?\.api-v(\d+)[-_](\d+)$/i;
const GENERIC_MEDIA_TYPES = new Set(['*/*', 'application/*', 'application/json']);

export type VersionNegotiation = { version: string } | { rejected: string };

export function negotiateVersion(accept: string | undefined): VersionNegotiation {
  if (accept === undefined || accept.trim() === '') return { version: LATEST_VERSION };
  const ranges = accept
    .split(',')
    .map((part) => (part.split(';')[0] ?? '').trim().toLowerCase())
    .filter(Boolean);
  const requested: string[] = [];
  let generic = false;
  for (const range of ranges) {
    const match = VENDOR_MEDIA_TYPE.exec(range);
    if (match) requested.push(`${Number(match[1])}.${Number(match[2])}`);
    else if (GENERIC_MEDIA_TYPES.has(range)) generic = true;
  }
  const supported = requested.find((v) => (SUPPORTED_VERSIONS as readonly string[]).includes(v));
  if (supported) return { version: supported };
  if (requested.length > 0) return { rejected: requested.join(', ') };
  if (generic) return { version: LATEST_VERSION };
  return { rejected: accept };
}

// Clients send a few distinct Accept headers over and over: each is parsed once. Past this many,
// new ones are parsed per request, so odd headers cannot grow the map.
const REMEMBERED_ACCEPT_HEADERS = 100;

export function registerVersioning(app: FastifyInstance): void {
  const negotiated = new Map<string | undefined, VersionNegotiation>();
  const negotiate = (accept: string | undefined) => {
    let result = negotiated.get(accept);
    if (result === undefined) {
      result = negotiateVersion(accept);
      if (negotiated.size < REMEMBERED_ACCEPT_HEADERS) negotiated.set(accept, result);
    }
    return result;
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Api-Version', LATEST_VERSION);
    if (routeAccess(request) === 'operator' || request.routeOptions.config.unversioned) {
      return done();
    }
    const result = negotiate(request.headers.accept);
    if (!('rejected' in result)) return done();
    done(
      new ApiError(
        406,
        'UnsupportedApiVersion',
        `The Accept header asks for ${result.rejected}; this server supports API version ${SUPPORTED_VERSIONS.join(', ')} ` +
          `(send Accept: application/vnd.xomni.api-v4-0, or application/json for the latest).`,
      ),
    );
  });
}
