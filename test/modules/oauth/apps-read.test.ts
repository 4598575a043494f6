// GET /management/oauth/apps and /management/oauth/apps/{applicationId} (contract §5.1).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, type TestTenant } from '../../support/test-api.ts';
import { createApp, type AppJson } from './oauth-fixtures.ts';
import { useAppsApi, api, acme, globex, TYPE_DESCRIPTIONS, APPS, getApp } from './apps-fixtures.ts';
import { expectFieldError } from '../../support/expectations.ts';

useAppsApi();

describe('GET /management/oauth/apps/{applicationId}', () => {
  it('answers 200 with the app, no secret, and an ETag', async () => {
    const created = await createApp(api, acme, 3, 'Readable');
    const response = await getApp(created.ApplicationId);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(response.json<AppJson>()).toEqual({ ...created, ApplicationSecret: null });
  });

  // The fetch passes the JSON the database keeps (migrations/0014_app_documents.sql); create answers the
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
      expectFieldError(await getApp(id), 'applicationId');
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

  it('keeps creation order when the database clock stepped back between two creations', async () => {
    const stepped = await api.createTenant('clock-step');
    const first = await createApp(api, stepped, 1, 'Made first');
    const second = await createApp(api, stepped, 1, 'Made second');
    // A virtual machine resynchronising its clock: the later app's reading is the earlier one.
    await api.database.handle.query(
      `update oauth_apps set created_at = add_seconds(created_at, -3600)
        where tenant_id = (select tenant_id from oauth_apps where id = $1) and id = $1`,
      [second.ApplicationId],
    );
    const response = await api.call({ url: APPS, tenant: stepped });
    expect(response.json<{ Results: AppJson[] }>().Results.map((a) => a.ApplicationId)).toEqual([
      stepped.appId,
      first.ApplicationId,
      second.ApplicationId,
    ]);
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
    expectFieldError(await api.call({ url: `${APPS}?${query}`, tenant }), field);
  });

  it("lists only the calling tenant's apps", async () => {
    const ids = (await api.call({ url: `${APPS}?take=1000`, tenant }))
      .json<{ Results: AppJson[] }>()
      .Results.map((a) => a.ApplicationId);
    expect(ids).not.toContain(acme.appId);
    expect(ids).not.toContain(globex.appId);
  });
});
