// Who may call a route follows from its path (contract §1 and §3); a route may also say so
// itself in config.access. Every other hook reads the decision from here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../domain/principal.ts';

export type { Scope };
/** operator: any host, no versioning, no token; anonymous: tenant host, no token. */
export type RouteAccess = 'operator' | 'anonymous' | Scope;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Content that is not the API's JSON (asset bytes): Accept versioning does not apply. */
    unversioned?: boolean;
    /**
     * The media types other than JSON the route documents for its answers (set from its schema
     * by the versioning hook): an Accept naming one of them asks for the latest version.
     */
    mediaTypes?: string[];
  }
}

const OPERATOR_PREFIXES = ['/health/', '/metrics', '/openapi.json', '/docs'];
const ANONYMOUS_PREFIXES = ['/oauth/', '/.well-known/'];

export function accessForPath(url: string): RouteAccess {
  if (OPERATOR_PREFIXES.some((p) => url === p || url.startsWith(p))) return 'operator';
  if (ANONYMOUS_PREFIXES.some((p) => url.startsWith(p))) return 'anonymous';
  if (url.startsWith('/management/') || url === '/management') return 'management';
  if (url.startsWith('/private/') || url === '/private') return 'private';
  return 'public';
}

export function registerRouteAccess(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = {
      ...(route.config ?? {}),
      access: route.config?.access ?? accessForPath(route.url),
    };
  });
}

/** Unknown routes have no config; they are treated as tenant routes that need no token. */
export function routeAccess(request: FastifyRequest): RouteAccess {
  return (
    request.routeOptions.config.access ?? (request.is404 ? accessForPath(request.url) : 'public')
  );
}
