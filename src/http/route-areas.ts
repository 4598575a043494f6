// Which permission area each route belongs to (route-permissions.ts), decided once when the
// route is declared, so that a request only reads its route's config. Each module declares the
// area of its routes and app.ts registers them `inArea`; a plugin inside may put its own routes
// in another area the same way, and a single route may name one (or `null`, no area) in its
// config. (A route that takes no token gets an area too; nothing asks for it.)
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The areas the modules declare; a route in any other fails the server's start. */
    permissionAreas: ReadonlySet<string>;
  }
}

/** Routes whose area came from a plugin around them, which a plugin nearer to them may replace. */
const inherited = new WeakSet<RouteOptions>();

/** The areas there are (those the modules declare), before any route is registered. */
export function declarePermissionAreas(app: FastifyInstance, areas: Iterable<string>): void {
  app.decorate('permissionAreas', new Set(areas));
}

/**
 * Puts every route that `instance` (and the plugins it registers) declares from now on in
 * `area`, unless the route names its own.
 */
export function routesInArea(instance: FastifyInstance, area: string | null): void {
  const known = instance.hasDecorator('permissionAreas') ? instance.permissionAreas : undefined;
  const check = (name: string | null | undefined, where: string) => {
    if (known && name && !known.has(name))
      throw new Error(`No module declares the permission area "${name}" (${where})`);
  };
  check(area, 'routesInArea');
  instance.addHook('onRoute', (route) => {
    const own = route.config?.area;
    if (own !== undefined && !inherited.has(route)) {
      check(own, `${String(route.method)} ${route.url}`);
      return;
    }
    route.config = { ...route.config, area };
    inherited.add(route);
  });
}

/** `plugin`, registered so that its routes are in `area` unless one names its own. */
export function inArea(area: string | null, plugin: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope) => {
    routesInArea(scope, area);
    await scope.register(plugin);
  };
}
