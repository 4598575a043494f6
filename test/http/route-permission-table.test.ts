// What every route of the built app asks of a member's token, against a checked-in table
// (route-permission-table.json): who may call it (route-access.ts) and the permission it needs
// (route-permissions.ts). Each module declares its routes' areas; a route that changes module, a
// new route helper or a new default must still ask for exactly what the table says.
//
// A route that deliberately changes: run this file once with WRITE_ROUTE_PERMISSION_TABLE=1 to
// write the table anew, and review its diff.
import { readFile, writeFile } from 'node:fs/promises';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeAccess } from '../../src/http/route-access.ts';
import { requiredPermission } from '../../src/http/route-permissions.ts';
import { startRouteWalk, type RouteWalk } from '../support/route-walk.ts';

const TABLE = new URL('./route-permission-table.json', import.meta.url);

let walk: RouteWalk;

beforeAll(async () => {
  walk = await startRouteWalk();
});
afterAll(() => walk?.close());

/** "<access> <permission>": the permission, `owner` (no area) or `-` (no token is taken). */
function requirement(route: RouteOptions): string {
  const method = route.method as string;
  const request = {
    method,
    url: route.url,
    is404: false,
    routeOptions: { url: route.url, method, config: route.config ?? {} },
  } as unknown as FastifyRequest;
  const access = routeAccess(request);
  if (access === 'operator' || access === 'anonymous') return `${access} -`;
  return `${access} ${requiredPermission(request) ?? 'owner'}`;
}

it('asks every route for the permission it asked for before', async () => {
  const actual: Record<string, string> = {};
  for (const route of walk.routes) {
    for (const method of [route.method].flat())
      actual[`${method} ${route.url}`] = requirement({ ...route, method });
  }
  const sorted = Object.fromEntries(Object.entries(actual).sort(([a], [b]) => a.localeCompare(b)));
  expect(Object.keys(sorted).length).toBeGreaterThan(100);
  if (process.env.WRITE_ROUTE_PERMISSION_TABLE === '1')
    await writeFile(TABLE, `${JSON.stringify(sorted, null, 2)}\n`);
  const expected = JSON.parse(await readFile(TABLE, 'utf8')) as Record<string, string>;
  expect(sorted).toEqual(expected);
});
