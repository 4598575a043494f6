// A route's permission area: its module's, a nearer plugin's, or the one it names itself, set
// once when the route is declared (src/http/route-areas.ts).
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { declarePermissionAreas, inArea, routesInArea } from '../../src/http/route-areas.ts';

let app: FastifyInstance;
afterEach(() => app?.close());

const areaOf = async (method: 'GET' | 'POST', url: string) => {
  const response = await app.inject({ method, url });
  return response.json<{ area: string | null | undefined }>().area;
};
const answerArea: FastifyPluginAsync = async (scope) => {
  scope.get('/plain', async (request) => ({ area: request.routeOptions.config.area }));
  scope.get('/named', { config: { area: 'account' } }, async (request) => ({
    area: request.routeOptions.config.area,
  }));
  scope.get('/none', { config: { area: null } }, async (request) => ({
    area: request.routeOptions.config.area,
  }));
  await scope.register(async (inner) => {
    routesInArea(inner, 'catalog');
    inner.get('/inner', async (request) => ({ area: request.routeOptions.config.area }));
    inner.post('/inner-named', { config: { area: 'account' } }, async (request) => ({
      area: request.routeOptions.config.area,
    }));
  });
};

describe('route areas', () => {
  it("gives each route its module's area, a nearer plugin's, or its own", async () => {
    app = Fastify();
    declarePermissionAreas(app, ['security', 'account', 'catalog']);
    await app.register(inArea('security', answerArea));
    await app.ready();
    expect(await areaOf('GET', '/plain')).toBe('security');
    expect(await areaOf('GET', '/named')).toBe('account');
    expect(await areaOf('GET', '/none')).toBeNull();
    expect(await areaOf('GET', '/inner')).toBe('catalog');
    expect(await areaOf('POST', '/inner-named')).toBe('account');
  });

  it('refuses an area no module declares', async () => {
    app = Fastify();
    declarePermissionAreas(app, ['security']);
    await expect(app.register(inArea('securty', answerArea)).ready()).rejects.toThrow(
      'No module declares the permission area "securty"',
    );
    app = Fastify();
    declarePermissionAreas(app, ['security', 'catalog']);
    await expect(app.register(inArea('security', answerArea)).ready()).rejects.toThrow(
      'No module declares the permission area "account" (GET /named)',
    );
  });
});
