// /management/security/members: create, read, list, update and delete, with every documented
// error, bad input, and other tenants' members out of reach. No answer carries a password or hash.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant, errorBody } from '../../support/test-api.ts';
import { GOOD_PASSWORD, createMember, type MemberJson } from './members-fixtures.ts';

const BASE = '/management/security/members';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const body = (username: string, extra: Record<string, unknown> = {}) => ({
  Username: username,
  Name: `Name of ${username}`,
  Password: GOOD_PASSWORD,
  Roles: [{ Id: 'analyst' }],
  ...extra,
});

function expectNoSecrets(text: string): void {
  expect(text).not.toContain('$argon2');
  expect(text).not.toContain(GOOD_PASSWORD);
  expect(text).not.toMatch(/password/i);
}

describe('POST /management/security/members', () => {
  it('answers 201 with the member, Location and ETag, and no password or hash', async () => {
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('Ada.Lovelace'),
    });
    expect(response.statusCode, response.body).toBe(201);
    const member = response.json<MemberJson>();
    expect(Object.keys(member).sort()).toEqual(['Email', 'Id', 'Name', 'Roles', 'Username']);
    expect(member.Email).toBeNull();
    expect(member.Username).toBe('ada.lovelace');
    expect(member.Roles).toEqual([
      { Id: 'analyst', Description: expect.stringContaining('Analyst') as unknown },
    ]);
    expect(response.headers.location).toBe(`${BASE}/${member.Id}`);
    expect(response.headers.etag).toBeDefined();
    expectNoSecrets(response.body);
  });

  it('answers 409 DuplicateUsername for a username taken in any case', async () => {
    await createMember(api, acme, 'grace', ['analyst']);
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('GRACE'),
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('DuplicateUsername');
  });

  it('accepts a username that another tenant uses (usernames are per tenant)', async () => {
    await createMember(api, acme, 'shared-name', ['analyst']);
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: globex,
      body: body('shared-name'),
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['short1!Ab', 'at least 12 characters'],
    ['aaaaaaaaaaaaaaab', 'different characters'],
    ['xx-hopper-secure-9', 'username'],
    ['Zebra-123456-river', 'in sequence'],
    ['my-qwerty-Zebra-9', 'in sequence'],
    ['Password2024!!', 'too common'],
    ['9081-7263-5540-3928', 'letters'],
  ])('answers 400 WeakPassword for %s (%s)', async (password, rule) => {
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('hopper', { Password: password }),
    });
    expect(response.statusCode, response.body).toBe(400);
    const error = errorBody(response);
    expect(error.Code).toBe('WeakPassword');
    expect(error.FriendlyDescription).toContain(rule);
    expect(error.Errors).toEqual([{ Field: 'Password', Message: expect.any(String) as unknown }]);
    expect(response.body).not.toContain(password);
  });

  it('takes a role as GET /management/security/roles lists it (Description and Permissions ignored)', async () => {
    const roles = await api.call({ url: '/management/security/roles', tenant: acme });
    const listed = roles
      .json<{ Results: { Id: string; Description: string; Permissions: string[] }[] }>()
      .Results.find((role) => role.Id === 'device-manager');
    expect(listed?.Permissions.length).toBeGreaterThan(0);
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('listed-role', { Roles: [{ ...listed, Permissions: ['*'] }] }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const member = response.json<MemberJson>();
    expect(member.Roles.map((role) => role.Id)).toEqual(['device-manager']);
    // The permissions sent are not the member's: its role's are.
    const me = await api.call({ url: `${BASE}/${member.Id}`, tenant: acme });
    expect(me.json<MemberJson>().Roles).toEqual([
      { Id: 'device-manager', Description: listed?.Description },
    ]);
  });

  it('answers 400 UnknownRole for a role that does not exist', async () => {
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('rolf', { Roles: [{ Id: 'superuser' }] }),
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('UnknownRole');
  });

  it.each([
    ['an unknown field', { PasswordHash: 'x' }],
    ['no roles', { Roles: [] }],
    ['a username with spaces', { Username: 'two words' }],
    ['a one-letter username', { Username: 'a' }],
    ['a blank name', { Name: '   ' }],
    ['a numeric password', { Password: 123456789012 }],
  ])('answers 400 for %s', async (_case, extra) => {
    const response = await api.call({
      method: 'POST',
      url: BASE,
      tenant: acme,
      body: body('edith', extra),
    });
    expect(response.statusCode, response.body).toBe(400);
    errorBody(response);
  });

  it('answers 400 without a password', async () => {
    const { Password: _omit, ...rest } = body('nopass');
    const response = await api.call({ method: 'POST', url: BASE, tenant: acme, body: rest });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Errors?.[0]?.Field).toBe('Password');
  });
});

describe('GET /management/security/members', () => {
  it('lists the members in pages with TotalCount, the owner made with the tenant first', async () => {
    const tenant = await api.createTenant('paging');
    for (const name of ['m1', 'm2', 'm3'])
      await createMember(api, tenant, `member-${name}`, ['analyst']);
    const first = await api.call({ url: `${BASE}?skip=0&take=2`, tenant });
    expect(first.statusCode).toBe(200);
    const page = first.json<{ Results: MemberJson[]; TotalCount: number }>();
    expect(page.TotalCount).toBe(4);
    expect(page.Results.map((m) => m.Username)).toEqual(['owner', 'member-m1']);
    expect(page.Results[0]!.Roles.map((r) => r.Id)).toEqual(['owner']);
    const last = await api.call({ url: `${BASE}?skip=3&take=2`, tenant });
    expect(last.json<{ Results: MemberJson[] }>().Results.map((m) => m.Username)).toEqual([
      'member-m3',
    ]);
    const empty = await api.call({ url: `${BASE}?skip=10`, tenant });
    expect(empty.json()).toEqual({ Results: [], TotalCount: 4 });
    expectNoSecrets(first.body);
  });

  it('keeps creation order when the database clock stepped back between two members', async () => {
    const tenant = await api.createTenant('clock-step');
    await createMember(api, tenant, 'made-first', ['analyst']);
    const later = await createMember(api, tenant, 'made-second', ['analyst']);
    await api.database.handle.query(
      `update members set created_at = add_seconds(created_at, -3600) where id = $1`,
      [later.Id],
    );
    const response = await api.call({ url: BASE, tenant });
    expect(response.json<{ Results: MemberJson[] }>().Results.map((m) => m.Username)).toEqual([
      'owner',
      'made-first',
      'made-second',
    ]);
  });

  it.each(['skip=-1', 'take=0', 'take=1001', 'take=abc'])('answers 400 for %s', async (query) => {
    const response = await api.call({ url: `${BASE}?${query}`, tenant: acme });
    expect(response.statusCode).toBe(400);
    errorBody(response);
  });

  it("never lists another tenant's members", async () => {
    const response = await api.call({ url: `${BASE}?take=1000`, tenant: globex });
    const names = response.json<{ Results: MemberJson[] }>().Results.map((m) => m.Username);
    expect(names).not.toContain('grace');
    expect(names).not.toContain('ada.lovelace');
  });
});

describe('GET /management/security/members/{id}', () => {
  it('answers the member with an ETag', async () => {
    const created = await createMember(api, acme, 'fetch-me', ['catalog-editor', 'analyst']);
    const response = await api.call({ url: `${BASE}/${created.Id}`, tenant: acme });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
    expect(response.headers.etag).toMatch(/^"/);
    expectNoSecrets(response.body);
  });

  it('answers 404 for an unknown id and for another tenant’s member', async () => {
    const other = await createMember(api, globex, 'globex-only', ['analyst']);
    for (const id of ['00000000-0000-4000-8000-000000000000', other.Id]) {
      const response = await api.call({ url: `${BASE}/${id}`, tenant: acme });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('NotFound');
    }
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const response = await api.call({ url: `${BASE}/42`, tenant: acme });
    expect(response.statusCode).toBe(400);
    errorBody(response);
  });
});

describe('PUT /management/security/members/{id}', () => {
  it('updates username, name and roles; keeps the password when none is given', async () => {
    const created = await createMember(api, acme, 'to-update', ['analyst']);
    const response = await api.call({
      method: 'PUT',
      url: `${BASE}/${created.Id}`,
      tenant: acme,
      body: { Id: created.Id, Username: 'Updated', Name: 'New name', Roles: created.Roles },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      Id: created.Id,
      Username: 'updated',
      Name: 'New name',
    });
    expectNoSecrets(response.body);
  });

  it('answers 412 for a stale If-Match, and 200 for the current one', async () => {
    const created = await createMember(api, acme, 'if-match', ['analyst']);
    const fetched = await api.call({ url: `${BASE}/${created.Id}`, tenant: acme });
    const update = (etag: string) =>
      api.call({
        method: 'PUT',
        url: `${BASE}/${created.Id}`,
        tenant: acme,
        headers: { 'if-match': etag },
        body: { Username: 'if-match', Name: 'Changed', Roles: [{ Id: 'analyst' }] },
      });
    expect((await update('"stale"')).statusCode).toBe(412);
    expect((await update(String(fetched.headers.etag))).statusCode).toBe(200);
  });

  it('answers 409 DuplicateUsername when renaming onto another member', async () => {
    const created = await createMember(api, acme, 'renamer', ['analyst']);
    const response = await api.call({
      method: 'PUT',
      url: `${BASE}/${created.Id}`,
      tenant: acme,
      body: { Username: 'grace', Name: 'x', Roles: [{ Id: 'analyst' }] },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('DuplicateUsername');
  });

  it('answers 400 IdMismatch, WeakPassword and UnknownRole', async () => {
    const created = await createMember(api, acme, 'bad-updates', ['analyst']);
    const cases: [Record<string, unknown>, string][] = [
      [{ Id: '00000000-0000-4000-8000-000000000000' }, 'IdMismatch'],
      [{ Password: 'short' }, 'WeakPassword'],
      [{ Roles: [{ Id: 'nobody' }] }, 'UnknownRole'],
    ];
    for (const [extra, code] of cases) {
      const response = await api.call({
        method: 'PUT',
        url: `${BASE}/${created.Id}`,
        tenant: acme,
        body: { Username: 'bad-updates', Name: 'x', Roles: [{ Id: 'analyst' }], ...extra },
      });
      expect(response.statusCode, code).toBe(400);
      expect(errorBody(response).Code).toBe(code);
    }
  });

  it('answers 409 LastOwner when the only owner would lose the role', async () => {
    const tenant = await api.createTenant('lone-owner');
    const list = await api.call({ url: BASE, tenant });
    const owner = list.json<{ Results: MemberJson[] }>().Results[0]!;
    const response = await api.call({
      method: 'PUT',
      url: `${BASE}/${owner.Id}`,
      tenant,
      body: { Username: 'owner', Name: 'Owner', Roles: [{ Id: 'analyst' }] },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('LastOwner');
  });

  it("answers 404 for another tenant's member and changes nothing there", async () => {
    const other = await createMember(api, globex, 'globex-put', ['analyst']);
    const response = await api.call({
      method: 'PUT',
      url: `${BASE}/${other.Id}`,
      tenant: acme,
      body: { Username: 'hijacked', Name: 'x', Roles: [{ Id: 'owner' }] },
    });
    expect(response.statusCode).toBe(404);
    const still = await api.call({ url: `${BASE}/${other.Id}`, tenant: globex });
    expect(still.json<MemberJson>().Username).toBe('globex-put');
  });
});

describe('DELETE /management/security/members/{id}', () => {
  it('answers 204, then 404', async () => {
    const created = await createMember(api, acme, 'to-delete', ['analyst']);
    const response = await api.call({
      method: 'DELETE',
      url: `${BASE}/${created.Id}`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(204);
    expect((await api.call({ url: `${BASE}/${created.Id}`, tenant: acme })).statusCode).toBe(404);
    const again = await api.call({ method: 'DELETE', url: `${BASE}/${created.Id}`, tenant: acme });
    expect(again.statusCode).toBe(404);
  });

  it('answers 409 LastOwner for the only owner, 204 once there is another', async () => {
    const tenant = await api.createTenant('two-owners');
    const owner = (await api.call({ url: BASE, tenant })).json<{ Results: MemberJson[] }>()
      .Results[0]!;
    const refused = await api.call({ method: 'DELETE', url: `${BASE}/${owner.Id}`, tenant });
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).Code).toBe('LastOwner');
    await createMember(api, tenant, 'second-owner', ['owner']);
    const accepted = await api.call({ method: 'DELETE', url: `${BASE}/${owner.Id}`, tenant });
    expect(accepted.statusCode).toBe(204);
  });

  it("answers 404 for another tenant's member, which stays", async () => {
    const other = await createMember(api, globex, 'globex-delete', ['analyst']);
    const response = await api.call({ method: 'DELETE', url: `${BASE}/${other.Id}`, tenant: acme });
    expect(response.statusCode).toBe(404);
    expect((await api.call({ url: `${BASE}/${other.Id}`, tenant: globex })).statusCode).toBe(200);
  });
});

describe('GET /management/security/roles', () => {
  it('lists the five roles with what each allows', async () => {
    const response = await api.call({ url: '/management/security/roles', tenant: acme });
    expect(response.statusCode).toBe(200);
    const roles = response.json<{
      Results: { Id: string; Description: string; Permissions: string[] }[];
      TotalCount: number;
    }>();
    expect(roles.TotalCount).toBe(5);
    expect(roles.Results.map((r) => r.Id)).toEqual([
      'owner',
      'catalog-editor',
      'analyst',
      'device-manager',
      'admin',
    ]);
    expect(roles.Results[0]!.Permissions).toEqual(['*']);
    expect(roles.Results[2]!.Permissions).not.toContain('catalog:write');
  });
});
