// PUT /management/oauth/apps/{applicationId} (contract §5.1).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../support/test-api.ts';
import { createApp, type AppJson } from './oauth-fixtures.ts';
import { useAppsApi, api, acme, globex, APPS, getApp } from './apps-fixtures.ts';
import { expectFieldError } from '../../support/expectations.ts';

useAppsApi();

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
    ['left out', { Name: 'Left out', ApplicationTypeId: 1 }],
    ['null', { Name: 'Null', ApplicationTypeId: 1, Description: null }],
  ])('clears the Description when it is %s', async (_case, body) => {
    const created = await createApp(api, acme, 1);
    await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: body.Name, Description: 'set', ApplicationTypeId: 1 },
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
    expectFieldError(
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
    ['an unknown field is sent', { Name: 'x', ApplicationTypeId: 1, Owner: 'me' }, 'Owner'],
  ])('answers 400 naming the field when %s, and changes nothing', async (_case, body, field) => {
    const name = `Unchanged: ${_case}`;
    const created = await createApp(api, acme, 1, name);
    expectFieldError(
      await api.call({
        method: 'PUT',
        url: `${APPS}/${created.ApplicationId}`,
        tenant: acme,
        body,
      }),
      field,
    );
    expect((await getApp(created.ApplicationId)).json<AppJson>()).toMatchObject({
      Name: name,
      ApplicationTypeId: 1,
      IsPredefined: false,
    });
  });

  it('takes the fetched app back: read-only fields ignored, its ApplicationId in any case', async () => {
    const created = await createApp(api, acme, 1, 'Fetched');
    const fetched = (await getApp(created.ApplicationId)).json<AppJson>();
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: {
        ...fetched,
        ApplicationId: fetched.ApplicationId.toUpperCase(),
        Name: 'Renamed',
        IsPredefined: true,
        ApplicationSecret: 'mine',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<AppJson>()).toEqual({ ...fetched, Name: 'Renamed' });
  });

  it("answers 400 IdMismatch for another app's ApplicationId, and changes nothing", async () => {
    const created = await createApp(api, acme, 1, 'Unchanged by a mismatch');
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { ApplicationId: randomUUID(), Name: 'x', ApplicationTypeId: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('IdMismatch');
    expect((await getApp(created.ApplicationId)).json<AppJson>().Name).toBe(
      'Unchanged by a mismatch',
    );
  });

  it("takes another app's name, in any case, and both apps keep their ids", async () => {
    const taken = await createApp(api, acme, 1, 'Taken name');
    const created = await createApp(api, acme, 2, 'Free name');
    for (const name of ['Taken name', 'taken NAME ']) {
      const response = await api.call({
        method: 'PUT',
        url: `${APPS}/${created.ApplicationId}`,
        tenant: acme,
        body: { Name: name, ApplicationTypeId: 2 },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<AppJson>().Name).toBe(name);
    }
    expect((await getApp(created.ApplicationId)).json<AppJson>().Name).toBe('taken NAME ');
    expect((await getApp(taken.ApplicationId)).json<AppJson>().Name).toBe('Taken name');
  });

  it('keeps its own name, or changes only its letter case', async () => {
    const created = await createApp(api, acme, 1, 'Own name');
    for (const name of ['Own name', 'OWN NAME']) {
      const response = await api.call({
        method: 'PUT',
        url: `${APPS}/${created.ApplicationId}`,
        tenant: acme,
        body: { Name: name, Description: 'kept', ApplicationTypeId: 1 },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<AppJson>().Name).toBe(name);
    }
  });

  it("takes the name of another tenant's app", async () => {
    await createApp(api, globex, 1, 'Globex name');
    const created = await createApp(api, acme, 1, 'Acme name');
    const response = await api.call({
      method: 'PUT',
      url: `${APPS}/${created.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Globex name', ApplicationTypeId: 1 },
    });
    expect(response.statusCode, response.body).toBe(200);
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
