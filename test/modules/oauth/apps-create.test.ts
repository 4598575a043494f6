// POST /management/oauth/apps (contract §5.1, with §4 for conventions).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { createApp, type AppJson } from './oauth-fixtures.ts';
import {
  useAppsApi,
  api,
  acme,
  globex,
  UUID,
  ISO_UTC,
  TYPE_DESCRIPTIONS,
  APPS,
} from './apps-fixtures.ts';
import { expectFieldError } from '../../support/expectations.ts';

useAppsApi();

describe('POST /management/oauth/apps', () => {
  it.each([1, 2, 3, 4])(
    'creates an app of type %i: 201, Location and the app with its secret',
    async (type) => {
      const before = Date.now();
      const response = await api.call({
        method: 'POST',
        url: APPS,
        tenant: acme,
        body: { Name: `Type ${type} app`, Description: 'For the tests', ApplicationTypeId: type },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const app = response.json<AppJson>();
      expect(response.headers.location).toBe(`${APPS}/${app.ApplicationId}`);
      expect(app).toEqual({
        ApplicationId: expect.stringMatching(UUID) as unknown,
        ApplicationSecret: expect.any(String) as unknown,
        Name: `Type ${type} app`,
        Description: 'For the tests',
        IsPredefined: false,
        ApplicationTypeId: type,
        ApplicationTypeDescription: TYPE_DESCRIPTIONS[type],
        CreatedDate: expect.stringMatching(ISO_UTC) as unknown,
      });
      // 256 random bits, base64url: 43 characters.
      expect(app.ApplicationSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const created = Date.parse(app.CreatedDate);
      expect(created).toBeGreaterThanOrEqual(before - 5_000);
      expect(created).toBeLessThanOrEqual(Date.now() + 5_000);
      // The Location answers.
      const located = await api.call({ url: response.headers.location as string, tenant: acme });
      expect(located.statusCode).toBe(200);
    },
  );

  it('accepts a missing or null Description and answers it as null', async () => {
    for (const body of [
      { Name: 'No description', ApplicationTypeId: 1 },
      { Name: 'Null description', ApplicationTypeId: 1, Description: null },
    ]) {
      const response = await api.call({ method: 'POST', url: APPS, tenant: acme, body });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<AppJson>().Description).toBeNull();
    }
  });

  it('accepts a Name of exactly 256 characters and a Description of exactly 500', async () => {
    const response = await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      body: { Name: 'n'.repeat(256), Description: 'd'.repeat(500), ApplicationTypeId: 2 },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<AppJson>().Name).toHaveLength(256);
  });

  it('gives every app its own id and secret', async () => {
    const [a, b] = [await createApp(api, acme, 1), await createApp(api, acme, 1)];
    expect(a.ApplicationId).not.toBe(b.ApplicationId);
    expect(a.ApplicationSecret).not.toBe(b.ApplicationSecret);
  });

  it('creates apps of a name the tenant already has, in any case or spacing: each its own id and secret', async () => {
    const first = await createApp(api, acme, 1, 'Till app');
    const count = async () =>
      (await api.call({ url: APPS, tenant: acme })).json<{ TotalCount: number }>().TotalCount;
    const before = await count();
    const names = ['Till app', 'TILL APP', '  Till app ', 'bootstrap management app'];
    const ids = new Set([first.ApplicationId]);
    for (const name of names) {
      const response = await api.call({
        method: 'POST',
        url: APPS,
        tenant: acme,
        body: { Name: name, ApplicationTypeId: 2 },
      });
      expect(response.statusCode, response.body).toBe(201);
      const app = response.json<AppJson>();
      expect(app.Name).toBe(name);
      ids.add(app.ApplicationId);
    }
    expect(ids.size).toBe(names.length + 1);
    expect(await count()).toBe(before + names.length);
    // Both apps of one name are there, each under its own id.
    const twin = await api.call({ url: `${APPS}/${first.ApplicationId}`, tenant: acme });
    expect(twin.json<AppJson>().Name).toBe('Till app');
  });

  it("accepts the name of another tenant's app", async () => {
    await createApp(api, globex, 3, 'Shared name');
    await createApp(api, acme, 3, 'Shared name');
  });

  it('creates both apps when two creates of one name come at the same time', async () => {
    const create = () =>
      api.call({
        method: 'POST',
        url: APPS,
        tenant: acme,
        body: { Name: 'Raced app', ApplicationTypeId: 1 },
      });
    const answers = await Promise.all([create(), create()]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    const [a, b] = answers.map((a) => a.json<AppJson>());
    expect(a!.ApplicationId).not.toBe(b!.ApplicationId);
  });

  it('lets the new app authenticate with its secret at the token endpoint', async () => {
    const app = await createApp(api, acme, 2);
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect(token.split('.')).toHaveLength(3);
  });

  it.each([
    ['Name is missing', { ApplicationTypeId: 1 }, 'Name'],
    ['Name is empty', { Name: '', ApplicationTypeId: 1 }, 'Name'],
    ['Name is only whitespace', { Name: '   \t', ApplicationTypeId: 1 }, 'Name'],
    ['Name is longer than 256', { Name: 'n'.repeat(257), ApplicationTypeId: 1 }, 'Name'],
    ['Name is not a string', { Name: { first: 'x' }, ApplicationTypeId: 1 }, 'Name'],
    [
      'Description is longer than 500',
      { Name: 'x', Description: 'd'.repeat(501), ApplicationTypeId: 1 },
      'Description',
    ],
    ['ApplicationTypeId is 0', { Name: 'x', ApplicationTypeId: 0 }, 'ApplicationTypeId'],
    ['ApplicationTypeId is 5', { Name: 'x', ApplicationTypeId: 5 }, 'ApplicationTypeId'],
    ['ApplicationTypeId is missing', { Name: 'x' }, 'ApplicationTypeId'],
    [
      'ApplicationTypeId is a string',
      { Name: 'x', ApplicationTypeId: 'Management' },
      'ApplicationTypeId',
    ],
    [
      'ApplicationTypeId is not an integer',
      { Name: 'x', ApplicationTypeId: 1.5 },
      'ApplicationTypeId',
    ],
    ['an unknown field is sent', { Name: 'x', ApplicationTypeId: 1, Owner: 'me' }, 'Owner'],
    [
      'a read-only field has a value of another type',
      { Name: 'x', ApplicationTypeId: 1, IsPredefined: 'yes' },
      'IsPredefined',
    ],
  ])('answers 400 naming the field when %s', async (_case, body, field) => {
    const response = await api.call({ method: 'POST', url: APPS, tenant: acme, body });
    expectFieldError(response, field);
  });

  it('ignores the read-only fields of a fetched app sent as a new one (id, secret, predefined)', async () => {
    const id = randomUUID();
    const response = await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      body: {
        Name: 'Copy',
        ApplicationTypeId: 1,
        ApplicationId: id,
        ApplicationSecret: 'mine',
        IsPredefined: true,
        ApplicationTypeDescription: 'Management',
        CreatedDate: '2001-02-03T04:05:06.000Z',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const app = response.json<{
      ApplicationId: string;
      ApplicationSecret: string;
      IsPredefined: boolean;
      ApplicationTypeDescription: string;
      CreatedDate: string;
    }>();
    expect(app.ApplicationId).not.toBe(id);
    expect(app.ApplicationSecret).not.toBe('mine');
    expect(app.IsPredefined).toBe(false);
    expect(app.ApplicationTypeDescription).not.toBe('Management');
    expect(app.CreatedDate).not.toBe('2001-02-03T04:05:06.000Z');
    await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
  });

  it('stores nothing when the request is invalid', async () => {
    const before = (await api.call({ url: `${APPS}?take=1`, tenant: acme })).json<{
      TotalCount: number;
    }>().TotalCount;
    await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      body: { Name: 'x', ApplicationTypeId: 9 },
    });
    const after = (await api.call({ url: `${APPS}?take=1`, tenant: acme })).json<{
      TotalCount: number;
    }>().TotalCount;
    expect(after).toBe(before);
  });

  it('rejects a body that is a JSON array with 400', async () => {
    const response = await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      body: [{ Name: 'x', ApplicationTypeId: 1 }],
    });
    expect(response.statusCode).toBe(400);
    errorBody(response);
  });
});
