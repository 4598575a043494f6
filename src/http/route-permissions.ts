// What a member's roles must allow for a route. App tokens are governed by their scopes alone; a
// member's token also carries permissions (`catalog:read`, `company:write` …, or `*` for
// everything), and each route needs one: `<area>:read` to read (GET, HEAD, or a route that says
// it only reads), `<area>:write` for every other method. A route's area is in its config, set
// once when the route is declared (route-areas.ts); a route without one is the owner's only.
// The members module keeps which role grants which permission.
import type { FastifyRequest } from 'fastify';
import type { Permission } from '../domain/principal.ts';

export type { Permission };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission area the route belongs to: its module's unless it names another itself;
     * `null` for none (only the owner may call it with a member token).
     */
    area?: string | null;
    /** A POST that only reads: a search with its filters in the body. */
    onlyReads?: boolean;
  }
}

/** The permission a request needs, or undefined when its route belongs to no area. */
export function requiredPermission(request: FastifyRequest): Permission | undefined {
  const { area, onlyReads } = request.routeOptions.config;
  if (!area) return undefined;
  const method = request.method;
  const reads = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || onlyReads === true;
  return `${area}:${reads ? 'read' : 'write'}`;
}

/** Whether a member's permissions allow the request (`*` allows everything). */
export function permits(permissions: ReadonlySet<string>, request: FastifyRequest): boolean {
  if (permissions.has('*')) return true;
  const needed = requiredPermission(request);
  return needed !== undefined && permissions.has(needed);
}
