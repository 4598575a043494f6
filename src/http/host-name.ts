// A fully qualified host name may end with a dot (`acme.localhost.`, RFC 1034 §3.1): the same
// name as without it. The dot is taken off the Host header (and X-Forwarded-Host, read behind a
// trusted proxy) before routing, so that every reader of the host agrees: tenant resolution,
// API_HOST and DEFAULT_TENANT, the integration gateway and portal hosts (the portal's routes
// match the header itself), and the request log. One dot only, as nginx does; a name that still
// ends with a dot, or has an empty label, addresses no tenant (see tenant-host.ts).
import type { IncomingMessage } from 'node:http';

const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** The Host header value (name and optional port) without the root dot of its name. */
export function withoutRootDot(host: string): string {
  const last = host.charCodeAt(host.length - 1);
  if (last === DOT) return host.slice(0, -1);
  // With a port: the dot is before its colon (an IPv6 literal has `]` there).
  if (last >= DIGIT_0 && last <= DIGIT_9) {
    const colon = host.lastIndexOf(':');
    if (colon > 0 && host.charCodeAt(colon - 1) === DOT)
      return host.slice(0, colon - 1) + host.slice(colon);
  }
  return host;
}

/** Whether a host name (no port) is malformed: empty, an empty label, or a dot left at its end. */
export function isMalformedHostName(hostname: string): boolean {
  return (
    hostname === '' ||
    hostname.charCodeAt(0) === DOT ||
    hostname.charCodeAt(hostname.length - 1) === DOT ||
    hostname.includes('..')
  );
}

/**
 * Takes the root dot off the request's Host header, and X-Forwarded-Host when a proxy is
 * trusted. Called once per request before routing (the server's rewriteUrl); a host without the
 * dot, as nearly all are, costs two character reads.
 */
export function normalizeRequestHost(request: IncomingMessage, trustProxy: boolean): void {
  const headers = request.headers;
  const host = headers.host;
  if (host !== undefined) {
    const normalized = withoutRootDot(host);
    if (normalized !== host) headers.host = normalized;
  }
  if (!trustProxy) return;
  const forwarded = headers['x-forwarded-host'];
  if (
    typeof forwarded === 'string' &&
    (forwarded.charCodeAt(forwarded.length - 1) === DOT ||
      forwarded.includes('.:') ||
      forwarded.includes('.,'))
  ) {
    // A list (`a, b`): Fastify reads the last entry; each is normalized alike.
    const normalized = forwarded
      .split(',')
      .map((entry) => withoutRootDot(entry.trim()))
      .join(', ');
    if (normalized !== forwarded) headers['x-forwarded-host'] = normalized;
  }
}

/**
 * Whether the raw headers hold Host more than once. Node keeps the first and drops the others,
 * so a request with two would be taken for the first one's tenant while a proxy in front may
 * have read the other (issue 46): it is refused instead (400 DuplicateHost).
 */
export function hasSeveralHosts(rawHeaders: string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return true;
  }
  return false;
}
