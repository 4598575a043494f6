// What a member's roles must allow for a route (issue 18). App tokens are governed by their
// scopes alone; a member's token also carries permissions (`catalog:read`, `company:write` …,
// or `*` for everything), and each route needs one: its area follows from the path (which
// module or resource it belongs to), and reads (GET, HEAD) need `:read`, every other method
// `:write`. The members module keeps which role grants which permission.
import type { FastifyRequest } from 'fastify';

export const AREAS = [
  'catalog',
  'storage',
  'analytics',
  'company',
  'apps',
  'integration',
  'security',
  /** What every signed-in member may read about the sign-in itself (the role list). */
  'account',
] as const;
export type Area = (typeof AREAS)[number];
export type Permission = `${Area}:${'read' | 'write'}` | '*';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The area a route belongs to when its path does not tell (see AREA_PREFIXES). */
    area?: Area;
  }
}

// Longest prefixes first where one contains another. A path under none of these belongs to no
// area: only the owner (`*`) may call it with a member token.
const AREA_PREFIXES: readonly [string, Area][] = [
  ['/private/catalog/', 'catalog'],
  ['/catalog/', 'catalog'],
  ['/management/storage/', 'storage'],
  ['/storage/', 'storage'],
  ['/private/analytics/', 'analytics'],
  ['/management/analytics/', 'analytics'],
  ['/management/configuration/', 'analytics'],
  ['/analytics/', 'analytics'],
  ['/management/company/', 'company'],
  ['/company/', 'company'],
  ['/management/oauth/', 'apps'],
  ['/management/integration/', 'integration'],
  // Webhooks and the event feed are integration settings and data of every area.
  ['/management/webhooks', 'integration'],
  ['/management/events', 'integration'],
  ['/management/security/roles', 'account'],
  ['/management/security/', 'security'],
];

// POST routes that only read (a search with its filters in the body).
const READING_POSTS = new Set(['/private/catalog/items']);

export function areaOf(url: string): Area | undefined {
  for (const [prefix, area] of AREA_PREFIXES) if (url.startsWith(prefix)) return area;
  return undefined;
}

/** The permission a request needs, or undefined when its route belongs to no area. */
export function requiredPermission(request: FastifyRequest): Permission | undefined {
  const url = request.routeOptions.url ?? request.url;
  const area = request.routeOptions.config.area ?? areaOf(url);
  if (!area) return undefined;
  const method = request.method;
  const reads =
    method === 'GET' ||
    method === 'HEAD' ||
    method === 'OPTIONS' ||
    (method === 'POST' && READING_POSTS.has(url));
  return `${area}:${reads ? 'read' : 'write'}`;
}

/** Whether a member's permissions allow the request (`*` allows everything). */
export function permits(permissions: ReadonlySet<string>, request: FastifyRequest): boolean {
  if (permissions.has('*')) return true;
  const needed = requiredPermission(request);
  return needed !== undefined && permissions.has(needed);
}
