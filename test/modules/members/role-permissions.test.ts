// What each role lets a signed-in member do (docs/api.md, "Members"): a refused call is 403
// InsufficientPermission in the contract's error body; an allowed one goes through. App tokens
// keep their scopes' rules.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, errorBody } from '../../support/test-api.ts';
import { createMember, signIn } from './members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const tokens: Record<string, string> = {};

beforeAll(async () => {
  for (const role of ['owner', 'catalog-editor', 'analyst', 'device-manager']) {
    await createMember(api, acme, `as-${role}`, [role]);
    tokens[role] = (await signIn(api, acme, `as-${role}`)).access_token;
  }
});

let brands = 0;
const brand = () => ({ Name: `Role brand ${++brands}` });
// Store names are unique within a tenant, like brands'.
let stores = 0;
const store = () => ({ Name: `Role store ${++stores}`, Location: { Longitude: 29, Latitude: 41 } });
const member = (username: string) => ({
  Username: username,
  Name: 'x',
  Password: 'violet-Harbor-lamp-92',
  Roles: [{ Id: 'analyst' }],
});

// [method, url, the roles allowed (the others get 403), body].
const CASES: [string, string, string[], unknown][] = [
  [
    'GET',
    '/private/catalog/brands',
    ['owner', 'catalog-editor', 'analyst', 'device-manager'],
    undefined,
  ],
  ['POST', '/private/catalog/brand', ['owner', 'catalog-editor'], 'brand'],
  [
    'POST',
    '/private/catalog/items',
    ['owner', 'catalog-editor', 'analyst', 'device-manager'],
    { Take: 5 },
  ],
  ['GET', '/management/storage/assets', ['owner', 'catalog-editor', 'analyst'], undefined],
  ['GET', '/management/company/stores', ['owner', 'analyst', 'device-manager'], undefined],
  ['POST', '/management/company/store', ['owner', 'device-manager'], 'store'],
  [
    'GET',
    '/management/configuration/trendingactiontypes',
    ['owner', 'catalog-editor', 'analyst'],
    undefined,
  ],
  ['GET', '/management/oauth/apps', ['owner'], undefined],
  ['GET', '/management/security/members', ['owner'], undefined],
  ['POST', '/management/security/members', ['owner'], 'member'],
  [
    'GET',
    '/management/security/roles',
    ['owner', 'catalog-editor', 'analyst', 'device-manager'],
    undefined,
  ],
];

describe('role permissions on the API', () => {
  it.each(CASES)('%s %s is allowed to %j only', async (method, url, allowed, body) => {
    for (const role of Object.keys(tokens)) {
      const response = await api.call({
        method: method,
        url,
        tenant: acme,
        token: tokens[role]!,
        ...(body === 'member'
          ? { body: member(`made-by-${role}`) }
          : body === 'brand'
            ? { body: brand() }
            : body === 'store'
              ? { body: store() }
              : body === undefined
                ? {}
                : { body }),
      });
      const context = `${role}: ${response.statusCode} ${response.body.slice(0, 200)}`;
      if (allowed.includes(role)) {
        expect(response.statusCode, context).toBeLessThan(300);
      } else {
        expect(response.statusCode, context).toBe(403);
        const error = errorBody(response);
        expect(error.Code).toBe('InsufficientPermission');
      }
    }
  });

  it('lets an analyst read an item but not change it (API refuses the write)', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: { Title: 'Readable' },
    });
    const id = created.json<{ Id: number }>().Id;
    const read = await api.call({
      url: `/private/catalog/item/${id}`,
      tenant: acme,
      token: tokens.analyst!,
    });
    expect(read.statusCode).toBe(200);
    const write = await api.call({
      method: 'PATCH',
      url: `/private/catalog/item/${id}`,
      tenant: acme,
      token: tokens.analyst!,
      body: { Title: 'Changed' },
    });
    expect(write.statusCode).toBe(403);
    expect(errorBody(write).FriendlyDescription).toContain('catalog:write');
    const after = await api.call({ url: `/private/catalog/item/${id}`, tenant: acme });
    expect(after.json<{ Title: string }>().Title).toBe('Readable');
  });

  it("ends a member's tokens when its roles change, and the new token has the new roles", async () => {
    const changing = await createMember(api, acme, 'promoted', ['analyst']);
    const before = (await signIn(api, acme, 'promoted')).access_token;
    const refused = await api.call({
      method: 'POST',
      url: '/private/catalog/brand',
      tenant: acme,
      token: before,
      body: brand(),
    });
    expect(refused.statusCode).toBe(403);
    const update = await api.call({
      method: 'PUT',
      url: `/management/security/members/${changing.Id}`,
      tenant: acme,
      body: { Username: 'promoted', Name: 'x', Roles: [{ Id: 'catalog-editor' }] },
    });
    expect(update.statusCode).toBe(200);
    const old = await api.call({ url: '/private/catalog/brands', tenant: acme, token: before });
    expect(old.statusCode).toBe(401);
    const after = (await signIn(api, acme, 'promoted')).access_token;
    const allowed = await api.call({
      method: 'POST',
      url: '/private/catalog/brand',
      tenant: acme,
      token: after,
      body: brand(),
    });
    expect(allowed.statusCode).toBe(201);
  });

  it("ends a deleted member's tokens at once", async () => {
    const leaving = await createMember(api, acme, 'leaving', ['analyst']);
    const token = (await signIn(api, acme, 'leaving')).access_token;
    expect(
      (await api.call({ url: '/private/catalog/brands', tenant: acme, token })).statusCode,
    ).toBe(200);
    await api.call({
      method: 'DELETE',
      url: `/management/security/members/${leaving.Id}`,
      tenant: acme,
    });
    expect(
      (await api.call({ url: '/private/catalog/brands', tenant: acme, token })).statusCode,
    ).toBe(401);
  });

  it('carries the member id, roles and permissions in the JWT, with the tenant as audience', async () => {
    const [, payload] = tokens.analyst!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      client_id: 'console',
      roles: ['analyst'],
      preferred_username: 'as-analyst',
      aud: 'http://acme.localhost:8080',
      iss: 'http://acme.localhost:8080',
    });
    expect(claims.perm).toEqual(expect.arrayContaining(['catalog:read', 'analytics:read']));
    expect(claims.perm).not.toContain('catalog:write');
  });
});
