// Every operation that takes a token belongs to an area (src/http/route-permissions.ts), so a
// member's roles decide about it; a new route outside every area would silently become the
// owner's only.
import { beforeAll, describe, expect, it } from 'vitest';
import { accessForPath } from '../../src/http/route-access.ts';
import { areaOf } from '../../src/http/route-permissions.ts';
import { useTestApi } from '../support/test-api.ts';

const api = useTestApi();
let paths: string[];

beforeAll(async () => {
  const document = (await api.call({ url: '/openapi.json' })).json<{ paths: object }>();
  paths = Object.keys(document.paths);
});

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
});
