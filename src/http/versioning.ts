// Accept-header versioning (contract §2): application/vnd.{vendor}.api-v4-0 (or v4_0) selects a
// version; missing, */*, application/* or application/json means the latest. The header is read
// as RFC 9110 §12.5.1 has it: a list of media ranges with weights, where q=0 refuses, the most
// specific range naming a version decides its weight, and 406 only when nothing listed is
// acceptable (so `application/vnd.xomni.api-v3_1, */*` gets the latest).
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { routeAccess } from './route-access.ts';

export const SUPPORTED_VERSIONS = ['4.0'] as const;
export const LATEST_VERSION = '4.0';

const VENDOR_MEDIA_TYPE = /^application\/vnd\.[a-z0-9][a-z0-9.+-]*?\.api-v(\d+)[-_](\d+)$/i;
const WEIGHT = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/** How closely a range names a version: the vendor type itself, then ever broader ranges. */
const ANY = 1; // */*
const APPLICATION = 2; // application/* (or text/* on an operation that answers text/…)
const JSON_TYPE = 3; // application/json, or the operation's own media type: the latest version
const VENDOR = 4; // application/vnd.{vendor}.api-v{M}-{m}
type Specificity = typeof ANY | typeof APPLICATION | typeof JSON_TYPE | typeof VENDOR;

interface MediaRange {
  weight: number;
  /** The version a vendor type names. */
  version?: string;
  specificity?: Specificity;
}

/** Whether a `{type}/*` range takes one of the operation's own media types (text/* a CSV). */
const coversOwnType = (range: string, ownTypes: readonly string[]) =>
  range.endsWith('/*') && ownTypes.some((own) => own.startsWith(range.slice(0, -1)));

function parseRange(part: string, ownTypes: readonly string[]): MediaRange | undefined {
  const [type = '', ...parameters] = part.split(';').map((p) => p.trim());
  const range = type.toLowerCase();
  if (!/^[^/\s]+\/[^/\s]+$/.test(range)) return undefined;
  let weight = 1;
  for (const parameter of parameters) {
    if (!/^q\s*=/i.test(parameter)) continue;
    // A weight RFC 9110 §12.4.2 does not allow makes the whole range unreadable: it is skipped.
    const match = WEIGHT.exec(parameter.replace(/\s+/g, ''));
    if (!match) return undefined;
    weight = Number(match[1]);
  }
  const vendor = VENDOR_MEDIA_TYPE.exec(range);
  if (vendor)
    return { weight, version: `${Number(vendor[1])}.${Number(vendor[2])}`, specificity: VENDOR };
  // A media type the operation documents besides JSON (application/x-ndjson for an import's
  // results) is its representation of the latest version, as application/json is.
  const specificity =
    range === '*/*'
      ? ANY
      : range === 'application/json' || ownTypes.includes(range)
        ? JSON_TYPE
        : range === 'application/*' || coversOwnType(range, ownTypes)
          ? APPLICATION
          : undefined;
  return { weight, ...(specificity === undefined ? {} : { specificity }) };
}

/** Whether a range names this version, and how closely. */
function specificityFor(range: MediaRange, version: string): Specificity | undefined {
  if (range.specificity === VENDOR) return range.version === version ? VENDOR : undefined;
  if (range.specificity === JSON_TYPE) return version === LATEST_VERSION ? JSON_TYPE : undefined;
  return range.specificity;
}

/** The weight the client gives a version: that of the most specific range naming it (0: none). */
function weightOf(ranges: MediaRange[], version: string): number {
  let best: Specificity | undefined;
  let weight = 0;
  for (const range of ranges) {
    const specificity = specificityFor(range, version);
    if (specificity === undefined) continue;
    if (best === undefined || specificity > best) {
      best = specificity;
      weight = range.weight;
    } else if (specificity === best) weight = Math.max(weight, range.weight);
  }
  return weight;
}

const newerFirst = [...SUPPORTED_VERSIONS].sort((a, b) => {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return bMajor - aMajor || bMinor - aMinor;
});

export type VersionNegotiation = { version: string } | { rejected: string };

/**
 * The version an Accept header asks for. `ownTypes`: the media types other than JSON that the
 * operation documents for its answers (lower case), which name the latest version too.
 */
export function negotiateVersion(
  accept: string | undefined,
  ownTypes: readonly string[] = [],
): VersionNegotiation {
  if (accept === undefined || accept.trim() === '') return { version: LATEST_VERSION };
  const ranges = accept
    .split(',')
    .map((part) => parseRange(part, ownTypes))
    .filter((range) => range !== undefined);
  // The highest weight wins; between equal weights, the newer version.
  let chosen: { version: string; weight: number } | undefined;
  for (const version of newerFirst) {
    const weight = weightOf(ranges, version);
    if (weight > 0 && (chosen === undefined || weight > chosen.weight))
      chosen = { version, weight };
  }
  if (chosen) return { version: chosen.version };
  const requested = ranges.filter((r) => r.version !== undefined && r.weight > 0);
  return {
    rejected:
      requested.length > 0 ? [...new Set(requested.map((r) => r.version))].join(', ') : accept,
  };
}

// Clients send a few distinct Accept headers over and over: each is parsed once. Past this many,
// new ones are parsed per request, so odd headers cannot grow the map.
const REMEMBERED_ACCEPT_HEADERS = 100;

/** The media types other than JSON that a route's schema documents for its answers. */
function documentedMediaTypes(response: unknown): string[] {
  if (typeof response !== 'object' || response === null) return [];
  const types = new Set<string>();
  for (const answer of Object.values(response)) {
    const content = (answer as { content?: Record<string, unknown> } | null)?.content;
    for (const type of Object.keys(content ?? {}))
      if (type !== 'application/json' && type !== '*/*') types.add(type.toLowerCase());
  }
  return [...types];
}

export function registerVersioning(app: FastifyInstance): void {
  // By the route's media types (most routes: none), then by the Accept header.
  const negotiated = new Map<string, Map<string | undefined, VersionNegotiation>>();
  const negotiate = (accept: string | undefined, ownTypes: readonly string[]) => {
    const key = ownTypes.join(',');
    let byAccept = negotiated.get(key);
    if (byAccept === undefined)
      negotiated.set(key, (byAccept = new Map<string | undefined, VersionNegotiation>()));
    let result = byAccept.get(accept);
    if (result === undefined) {
      result = negotiateVersion(accept, ownTypes);
      if (byAccept.size < REMEMBERED_ACCEPT_HEADERS) byAccept.set(accept, result);
    }
    return result;
  };
  app.addHook('onRoute', (route) => {
    const mediaTypes = documentedMediaTypes(route.schema?.response);
    if (mediaTypes.length > 0) route.config = { ...route.config, mediaTypes };
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Api-Version', LATEST_VERSION);
    if (routeAccess(request) === 'operator' || request.routeOptions.config.unversioned) {
      return done();
    }
    // The answer depends on Accept (RFC 9110 §12.5.5); CORS may have named Origin already.
    const vary = reply.getHeader('vary');
    reply.header('Vary', vary === undefined ? 'Accept' : `${String(vary)}, Accept`);
    const result = negotiate(request.headers.accept, request.routeOptions.config.mediaTypes ?? []);
    if (!('rejected' in result)) return done();
    done(
      new ApiError(
        406,
        'UnsupportedApiVersion',
        `The Accept header asks for ${result.rejected}; this server supports API version ${SUPPORTED_VERSIONS.join(', ')} ` +
          `(send Accept: application/vnd.xomni.api-v4-0, or application/json or */* for the latest).`,
      ),
    );
  });
}
