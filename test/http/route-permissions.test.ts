// Every operation that takes a token belongs to an area (its module's, src/http/route-areas.ts),
// so a member's roles decide about it; a new route outside every area would silently become the
// owner's only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessForPath } from '../../src/http/route-access.ts';
import { ROLES } from '../../src/modules/members/roles.ts';
import { routeAt, startRouteWalk, type RouteWalk } from '../support/route-walk.ts';

let walk: RouteWalk;
let paths: string[];

beforeAll(async () => {
  walk = await startRouteWalk();
  const document = (await walk.app.inject({ url: '/openapi.json' })).json<{ paths: object }>();
  paths = Object.keys(document.paths);
});
afterAll(() => walk?.close());

/** The area of the route at an OpenAPI path (its GET where it has one). */
const areaOf = (path: string) =>
  (routeAt(walk, path, 'GET') ?? routeAt(walk, path))?.config?.area ?? undefined;

describe('route areas', () => {
  it('puts every path that needs a token in an area', () => {
    const needToken = paths.filter((path) => {
      const access = accessForPath(path);
      return access !== 'operator' && access !== 'anonymous' && !path.startsWith('/console');
    });
    expect(needToken.length).toBeGreaterThan(50);
    expect(needToken.filter((path) => areaOf(path) === undefined)).toEqual([]);
  });

  it.each([
    ['/private/catalog/items', 'catalog'],
    ['/management/storage/assets', 'storage'],
    ['/management/configuration/trendingactiontypes', 'analytics'],
    ['/management/company/stores', 'company'],
    ['/management/oauth/apps', 'apps'],
    ['/management/integration/endpoint', 'integration'],
    ['/management/security/members/{id}', 'security'],
    ['/management/security/roles', 'account'],
  ])('%s is in %s', (path, area) => {
    expect(areaOf(path)).toBe(area);
  });

  it('has the areas the modules declare, each role granting only those', () => {
    const areas = [...walk.app.permissionAreas].sort();
    expect(areas).toEqual([
      'account',
      'analytics',
      'apps',
      'catalog',
      'company',
      'history',
      'integration',
      'security',
      'storage',
    ]);
    const granted = ROLES.flatMap((role) => role.Permissions).filter((p) => p !== '*');
    expect(granted.filter((p) => !areas.includes(p.split(':')[0]!))).toEqual([]);
  });
});
