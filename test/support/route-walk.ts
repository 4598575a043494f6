// A built app that records every route its modules declare, for tests that walk all routes.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices, type Services } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { openTestDatabase } from './test-database.ts';

export interface RouteWalk {
  app: FastifyInstance;
  services: Services;
  /** Each route as declared, its config as every hook left it. */
  routes: RouteOptions[];
  close(): Promise<void>;
}

export async function startRouteWalk(): Promise<RouteWalk> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '8080', DATA_DIR: '/nonexistent' });
  const database = await openTestDatabase();
  const services = createServices(config, database.handle);
  const routes: RouteOptions[] = [];
  // Each module's routes plugin runs inside one that records the routes it declares, after every
  // hook that sets their config (those of the root and of the plugins around the module's).
  for (const module of services.modules) {
    const own = module.routes;
    if (!own) continue;
    module.routes = async (scope) => {
      scope.addHook('onRoute', (route) => {
        routes.push(route);
      });
      await scope.register(own);
    };
  }
  const app = await buildApp(services);
  await app.ready();
  return {
    app,
    services,
    routes,
    async close() {
      await app.close();
      await database.handle.close();
    },
  };
}

/** The route at an OpenAPI path (`/items/{id}`), for one method or any. */
export function routeAt(walk: RouteWalk, path: string, method?: string): RouteOptions | undefined {
  const url = path.replaceAll(/\{(\w+)\}/g, ':$1');
  return walk.routes.find(
    (route) => route.url === url && (!method || [route.method].flat().includes(method)),
  );
}
