// /management/oauth/apps (contract §5.1, with §3 for tokens and §4 for conventions).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuth,
  errorBody,
  startTestApi,
  type TestApi,
  type TestTenant,
} from '../../support/test-api.ts';
import {
  createApp,
  expectInvalidToken,
  oauthError,
  oauthRequest,
  type AppJson,
  type TokenJson,
} from './oauth-helpers.ts';

let api: TestApi;
let acme: TestTenant;
let globex: TestTenant;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const TYPE_DESCRIPTIONS: Record<number, string> = {
  1: 'Consumer',
  2: 'Private',
  3: 'Management',
  4: 'Device',
};
const APPS = '/management/oauth/apps';

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
});
afterAll(() => api.close());

function expectValidation(response: Awaited<ReturnType<TestApi['call']>>, field: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = errorBody(response);
  expect(body.Code).toBe('ValidationFailed');
  expect(body.Errors?.map((e) => e.Field)).toContain(field);
}

async function getApp(id: string, tenant: TestTenant = acme) {
  return api.call({ url: `${APPS}/${id}`, tenant });
}

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
      'a read-only field (ApplicationId) is sent',
      { Name: 'x', ApplicationTypeId: 1, ApplicationId: randomUUID() },
      'ApplicationId',
    ],
    [
      'a read-only field (ApplicationSecret) is sent',
      { Name: 'x', ApplicationTypeId: 1, ApplicationSecret: 'mine' },
      'ApplicationSecret',
    ],
  ])('answers 400 naming the field when %s', async (_case, body, field) => {
    const response = await api.call({ method: 'POST', url: APPS, tenant: acme, body });
    expectValidation(response, field);
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

describe('GET /management/oauth/apps/{applicationId}', () => {
  it('answers 200 with the app, no secret, and an ETag', async () => {
    const created = await createApp(api, acme, 3, 'Readable');
    const response = await getApp(created.ApplicationId);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(response.json<AppJson>()).toEqual({ ...created, ApplicationSecret: null });
  });

  // The fetch passes the JSON the database keeps (0009_app_documents.sql); create answers the
  // JSON the service builds. The two must agree for every type and any text.
  it.each([1, 2, 3, 4])(
    'answers an app of type %i exactly as create answered it, without the secret',
    async (type) => {
      const body = {
        Name: `Şube "Kadıköy" \\ ${type} €5 🙂`,
        Description: 'Tab\there, line\nthere, \u0001 and </script>',
        ApplicationTypeId: type,
      };
      const created = await api.call({ method: 'POST', url: APPS, tenant: acme, body });
      expect(created.statusCode, created.body).toBe(201);
      const response = await getApp(created.json<AppJson>().ApplicationId);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json<AppJson>()).toEqual({
        ...created.json<AppJson>(),
        ApplicationSecret: null,
        ApplicationTypeDescription: TYPE_DESCRIPTIONS[type],
      });
    },
  );

  it('answers the same ETag while the app is unchanged', async () => {
    const created = await createApp(api, acme, 1);
    const [a, b] = [await getApp(created.ApplicationId), await getApp(created.ApplicationId)];
    expect(a.headers.etag).toBe(b.headers.etag);
  });

  it('shows the bootstrap app as predefined management app', async () => {
    const response = await getApp(acme.appId);
    expect(response.statusCode).toBe(200);
    expect(response.json<AppJson>()).toMatchObject({
      ApplicationId: acme.appId,
      ApplicationSecret: null,
      IsPredefined: true,
      ApplicationTypeId: 3,
      ApplicationTypeDescription: 'Management',
    });
  });

  it('answers 404 for an unknown id', async () => {
    const response = await getApp(randomUUID());
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('NotFound');
  });

  it.each(['not-a-uuid', '123', `${randomUUID()}x`])(
    'answers 400 for the malformed id %s',
    async (id) => {
      expectValidation(await getApp(id), 'applicationId');
    },
  );

  it("answers 404 for another tenant's app", async () => {
    const theirs = await createApp(api, globex, 3);
    const response = await getApp(theirs.ApplicationId, acme);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('NotFound');
    expect((await getApp(globex.appId, acme)).statusCode).toBe(404);
  });
});

describe('GET /management/oauth/apps', () => {
  let tenant: TestTenant;
  const names = ['First', 'Second', 'Third', 'Fourth', 'Fifth'];

  beforeAll(async () => {
    tenant = await api.createTenant('listing');
    for (const [i, name] of names.entries()) await createApp(api, tenant, (i % 4) + 1, name);
  });

  it('lists the apps with TotalCount, the bootstrap app first, secrets never shown', async () => {
    const response = await api.call({ url: APPS, tenant });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ Results: AppJson[]; TotalCount: number }>();
    expect(body.TotalCount).toBe(6);
    expect(body.Results.map((a) => a.Name)).toEqual(['Bootstrap management app', ...names]);
    expect(body.Results[0]).toMatchObject({
      ApplicationId: tenant.appId,
      IsPredefined: true,
      ApplicationTypeId: 3,
    });
    expect(body.Results.every((a) => a.ApplicationSecret === null)).toBe(true);
    expect(body.Results.map((a) => a.ApplicationTypeDescription)).toEqual([
      'Management',
      'Consumer',
      'Private',
      'Management',
      'Device',
      'Consumer',
    ]);
  });

  it('pages with skip and take in a stable order, TotalCount counting them all', async () => {
    const all = (await api.call({ url: `${APPS}?take=1000`, tenant }))
      .json<{ Results: AppJson[] }>()
      .Results.map((a) => a.ApplicationId);
    const pages: string[] = [];
    for (const skip of [0, 2, 4]) {
      const response = await api.call({ url: `${APPS}?skip=${skip}&take=2`, tenant });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ Results: AppJson[]; TotalCount: number }>();
      expect(body.TotalCount).toBe(6);
      expect(body.Results).toHaveLength(2);
      pages.push(...body.Results.map((a) => a.ApplicationId));
    }
    expect(pages).toEqual(all);
    const again = (await api.call({ url: `${APPS}?take=1000`, tenant }))
      .json<{ Results: AppJson[] }>()
      .Results.map((a) => a.ApplicationId);
    expect(again).toEqual(all);
  });

  it('answers a page past the end with 200 and Results []', async () => {
    const response = await api.call({ url: `${APPS}?skip=6`, tenant });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ Results: [], TotalCount: 6 });
  });

  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
    ['take=x', 'take'],
  ])('answers 400 for %s', async (query, field) => {
    expectValidation(await api.call({ url: `${APPS}?${query}`, tenant }), field);
  });

  it("lists only the calling tenant's apps", async () => {
    const ids = (await api.call({ url: `${APPS}?take=1000`, tenant }))
      .json<{ Results: AppJson[] }>()
      .Results.map((a) => a.ApplicationId);
    expect(ids).not.toContain(acme.appId);
    expect(ids).not.toContain(globex.appId);
  });
});

describe('PUT /management/oauth/apps/{applicationId}', () => {
  it('updates name, description and type: 200 with the app and a new ETag', async () => {
    const created = await createApp(api, acme, 1, 'Before');
    const etagBefore = (await getApp(created.ApplicationId)).headers.etag;
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'After', Description: 'Changed', ApplicationTypeId: 2 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(response.headers.etag).not.toBe(etagBefore);
    const expected = {
      ...created,
      ApplicationSecret: null,
      Name: 'After',
      Description: 'Changed',
      ApplicationTypeId: 2,
      ApplicationTypeDescription: 'Private',
    };
    expect(response.json<AppJson>()).toEqual(expected);
    const read = await getApp(created.ApplicationId);
    expect(read.json<AppJson>()).toEqual(expected);
    expect(read.headers.etag).toBe(response.headers.etag);
  });

  it.each([
    ['left out', { Name: 'x', ApplicationTypeId: 1 }],
    ['null', { Name: 'x', ApplicationTypeId: 1, Description: null }],
  ])('clears the Description when it is %s', async (_case, body) => {
    const created = await createApp(api, acme, 1);
    await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'x', Description: 'set', ApplicationTypeId: 1 },
    });
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<AppJson>().Description).toBeNull();
    expect((await getApp(created.ApplicationId)).json<AppJson>().Description).toBeNull();
  });

  it('answers 200 when If-Match matches the current ETag', async () => {
    const created = await createApp(api, acme, 1);
    const etag = (await getApp(created.ApplicationId)).headers.etag as string;
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Matched', ApplicationTypeId: 1 },
      headers: { 'if-match': etag },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AppJson>().Name).toBe('Matched');
  });

  it('answers 412 for a stale If-Match and changes nothing', async () => {
    const created = await createApp(api, acme, 1);
    const stale = (await getApp(created.ApplicationId)).headers.etag as string;
    const first = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'First writer', ApplicationTypeId: 1 },
      headers: { 'if-match': stale },
    });
    expect(first.statusCode).toBe(200);
    const second = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Second writer', Description: 'lost', ApplicationTypeId: 4 },
      headers: { 'if-match': stale },
    });
    expect(second.statusCode).toBe(412);
    expect(errorBody(second).Code).toBe('PreconditionFailed');
    const read = await getApp(created.ApplicationId);
    expect(read.json<AppJson>()).toMatchObject({
      Name: 'First writer',
      Description: null,
      ApplicationTypeId: 1,
    });
    expect(read.headers.etag).toBe(first.headers.etag);
  });

  it('answers 404 for an unknown id and for another tenant’s app, which stays unchanged', async () => {
    const unknown = await api.call({
      method: 'PUT',
      url: `${APPS}/${randomUUID()}`,
      tenant: acme,
      body: { Name: 'x', ApplicationTypeId: 1 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).Code).toBe('NotFound');
    const theirs = await createApp(api, globex, 2, 'Theirs');
    const foreign = await api.call({
      method: 'PUT',
      url: `${APPS}/${theirs.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Hijacked', ApplicationTypeId: 3 },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await getApp(theirs.ApplicationId, globex)).json<AppJson>()).toMatchObject({
      Name: 'Theirs',
      ApplicationTypeId: 2,
    });
  });

  it('answers 400 for a malformed id', async () => {
    expectValidation(
      await api.call({
        method: 'PUT',
        url: `${APPS}/nope`,
        tenant: acme,
        body: { Name: 'x', ApplicationTypeId: 1 },
      }),
      'applicationId',
    );
  });

  it.each([
    ['Name is missing', { ApplicationTypeId: 1 }, 'Name'],
    ['Name is whitespace', { Name: ' ', ApplicationTypeId: 1 }, 'Name'],
    ['Name is longer than 256', { Name: 'n'.repeat(257), ApplicationTypeId: 1 }, 'Name'],
    [
      'Description is longer than 500',
      { Name: 'x', Description: 'd'.repeat(501), ApplicationTypeId: 1 },
      'Description',
    ],
    ['ApplicationTypeId is 5', { Name: 'x', ApplicationTypeId: 5 }, 'ApplicationTypeId'],
    ['ApplicationTypeId is missing', { Name: 'x' }, 'ApplicationTypeId'],
    [
      'IsPredefined is sent',
      { Name: 'x', ApplicationTypeId: 1, IsPredefined: true },
      'IsPredefined',
    ],
  ])('answers 400 naming the field when %s, and changes nothing', async (_case, body, field) => {
    const created = await createApp(api, acme, 1, 'Unchanged');
    expectValidation(
      await api.call({
        method: 'PUT',
        url: `${APPS}/${created.ApplicationId}`,
        tenant: acme,
        body,
      }),
      field,
    );
    expect((await getApp(created.ApplicationId)).json<AppJson>()).toMatchObject({
      Name: 'Unchanged',
      ApplicationTypeId: 1,
      IsPredefined: false,
    });
  });

  it('answers 409 when the type of the predefined app would change', async () => {
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${acme.appId}`,
      tenant: acme,
      body: { Name: 'Bootstrap management app', ApplicationTypeId: 1 },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('PredefinedAppType');
    expect((await getApp(acme.appId)).json<AppJson>().ApplicationTypeId).toBe(3);
  });

  it('renames the predefined app, which stays predefined and keeps working', async () => {
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${acme.appId}`,
      tenant: acme,
      body: { Name: 'Acme admin', Description: 'Renamed', ApplicationTypeId: 3 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AppJson>()).toMatchObject({
      Name: 'Acme admin',
      Description: 'Renamed',
      IsPredefined: true,
      ApplicationTypeId: 3,
    });
    expect((await api.call({ url: APPS, tenant: acme })).statusCode).toBe(200);
  });
});

describe('DELETE /management/oauth/apps/{applicationId}', () => {
  it('answers 204 with no body; the app is then 404 and gone from the list', async () => {
    const created = await createApp(api, acme, 2);
    const response = await api.call({
      method: 'DELETE',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await getApp(created.ApplicationId)).statusCode).toBe(404);
    const ids = (await api.call({ url: `${APPS}?take=1000`, tenant: acme }))
      .json<{ Results: AppJson[] }>()
      .Results.map((a) => a.ApplicationId);
    expect(ids).not.toContain(created.ApplicationId);
    const again = await api.call({
      method: 'DELETE',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
    });
    expect(again.statusCode).toBe(404);
  });

  it('makes the deleted app unable to get a token', async () => {
    const created = await createApp(api, acme, 2);
    await api.call({ method: 'DELETE', url: `${APPS}/${created.ApplicationId}`, tenant: acme });
    const response = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials' },
      authorization: basicAuth(created.ApplicationId, created.ApplicationSecret),
    });
    oauthError(response, 401, 'invalid_client');
  });

  it('answers 409 for the predefined app, which stays', async () => {
    const response = await api.call({
      method: 'DELETE',
      url: `${APPS}/${acme.appId}`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('PredefinedApp');
    expect((await getApp(acme.appId)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id, 400 for a malformed one', async () => {
    const unknown = await api.call({
      method: 'DELETE',
      url: `${APPS}/${randomUUID()}`,
      tenant: acme,
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).Code).toBe('NotFound');
    expectValidation(
      await api.call({ method: 'DELETE', url: `${APPS}/xyz`, tenant: acme }),
      'applicationId',
    );
  });

  it("answers 404 for another tenant's app, which stays", async () => {
    const theirs = await createApp(api, globex, 1);
    expect(
      (await api.call({ method: 'DELETE', url: `${APPS}/${theirs.ApplicationId}`, tenant: acme }))
        .statusCode,
    ).toBe(404);
    expect((await getApp(theirs.ApplicationId, globex)).statusCode).toBe(200);
  });

  it('answers 412 for a stale If-Match and keeps the app; a matching one deletes it', async () => {
    const created = await createApp(api, acme, 1);
    const stale = (await getApp(created.ApplicationId)).headers.etag as string;
    await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Renamed', ApplicationTypeId: 1 },
    });
    const refused = await api.call({
      method: 'DELETE',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      headers: { 'if-match': stale },
    });
    expect(refused.statusCode).toBe(412);
    expect(errorBody(refused).Code).toBe('PreconditionFailed');
    const current = await getApp(created.ApplicationId);
    expect(current.statusCode).toBe(200);
    const deleted = await api.call({
      method: 'DELETE',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      headers: { 'if-match': current.headers.etag as string },
    });
    expect(deleted.statusCode).toBe(204);
  });
});

describe('POST /management/oauth/apps/{applicationId}/secret', () => {
  it('answers 200 with the app and a new secret; only the new secret gets tokens', async () => {
    const created = await createApp(api, acme, 2, 'Rotating');
    const response = await api.call({
      method: 'POST',
      url: `${APPS}/${created.ApplicationId}/secret`,
      tenant: acme,
    });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json<AppJson>();
    expect(rotated).toEqual({
      ...created,
      ApplicationSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
    });
    expect(rotated.ApplicationSecret).not.toBe(created.ApplicationSecret);

    const old = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials' },
      authorization: basicAuth(created.ApplicationId, created.ApplicationSecret),
    });
    oauthError(old, 401, 'invalid_client');
    const fresh = await oauthRequest(api, acme, {
      form: { grant_type: 'client_credentials' },
      authorization: basicAuth(created.ApplicationId, rotated.ApplicationSecret!),
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json<TokenJson>().scope).toBe('public private');
    // The secret is shown this once.
    expect((await getApp(created.ApplicationId)).json<AppJson>().ApplicationSecret).toBeNull();
  });

  it('changes the ETag of the app', async () => {
    const created = await createApp(api, acme, 1);
    const before = (await getApp(created.ApplicationId)).headers.etag;
    await api.call({
      method: 'POST',
      url: `${APPS}/${created.ApplicationId}/secret`,
      tenant: acme,
    });
    expect((await getApp(created.ApplicationId)).headers.etag).not.toBe(before);
  });

  it('rotates the predefined app’s secret', async () => {
    const tenant = await api.createTenant('rotator');
    const response = await api.call({
      method: 'POST',
      url: `${APPS}/${tenant.appId}/secret`,
      tenant,
    });
    expect(response.statusCode).toBe(200);
    const secret = response.json<AppJson>().ApplicationSecret!;
    const token = await api.issueToken(tenant, tenant.appId, secret);
    expect((await api.call({ url: APPS, tenant, token })).statusCode).toBe(200);
  });

  it("answers 404 for an unknown id and for another tenant's app, whose secret keeps working", async () => {
    expect(
      (await api.call({ method: 'POST', url: `${APPS}/${randomUUID()}/secret`, tenant: acme }))
        .statusCode,
    ).toBe(404);
    const theirs = await createApp(api, globex, 2);
    const foreign = await api.call({
      method: 'POST',
      url: `${APPS}/${theirs.ApplicationId}/secret`,
      tenant: acme,
    });
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).Code).toBe('NotFound');
    await api.issueToken(globex, theirs.ApplicationId, theirs.ApplicationSecret);
  });

  it('answers 400 for a malformed id', async () => {
    expectValidation(
      await api.call({ method: 'POST', url: `${APPS}/bad-id/secret`, tenant: acme }),
      'applicationId',
    );
  });
});

describe('authentication and scope on every apps route', () => {
  const someId = randomUUID();
  const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }[] = [
    { method: 'POST', url: APPS, body: { Name: 'x', ApplicationTypeId: 1 } },
    { method: 'GET', url: APPS },
    { method: 'GET', url: `${APPS}/${someId}` },
    { method: 'PUT', url: `${APPS}/${someId}`, body: { Name: 'x', ApplicationTypeId: 1 } },
    { method: 'DELETE', url: `${APPS}/${someId}` },
    { method: 'POST', url: `${APPS}/${someId}/secret` },
  ];

  it.each(routes)(
    '$method $url without a token: 401 invalid_token',
    async ({ method, url, body }) => {
      const response = await api.call({ method, url, tenant: acme, token: null, body });
      expectInvalidToken(response);
      errorBody(response);
    },
  );

  it.each(routes)(
    '$method $url with a malformed token: 401 invalid_token',
    async ({ method, url, body }) => {
      expectInvalidToken(await api.call({ method, url, tenant: acme, token: 'not.a.token', body }));
    },
  );

  it.each(routes)(
    '$method $url with a Private (type 2) token: 403 InsufficientScope',
    async ({ method, url, body }) => {
      const privateApp = await createApp(api, acme, 2);
      const token = await api.issueToken(
        acme,
        privateApp.ApplicationId,
        privateApp.ApplicationSecret,
      );
      const response = await api.call({ method, url, tenant: acme, token, body });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).Code).toBe('InsufficientScope');
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
    },
  );

  it.each(routes)(
    "$method $url with another tenant's management token: 401",
    async ({ method, url, body }) => {
      expectInvalidToken(await api.call({ method, url, tenant: acme, token: globex.token, body }));
    },
  );

  it('creates nothing when the caller lacks the management scope', async () => {
    const count = async () =>
      (await api.call({ url: `${APPS}?take=1`, tenant: acme })).json<{ TotalCount: number }>()
        .TotalCount;
    const before = await count();
    const consumer = await createApp(api, acme, 1);
    const token = await api.issueToken(acme, consumer.ApplicationId, consumer.ApplicationSecret);
    await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      token,
      body: { Name: 'sneaky', ApplicationTypeId: 3 },
    });
    expect(await count()).toBe(before + 1);
  });
});
