// DELETE /management/oauth/apps/{applicationId} (contract §5.1, with §3 for tokens).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { basicAuth, errorBody } from '../../support/test-api.ts';
import { createApp, oauthError, oauthRequest, type AppJson } from './oauth-fixtures.ts';
import { useAppsApi, api, acme, globex, APPS, getApp } from './apps-fixtures.ts';
import { expectFieldError } from '../../support/expectations.ts';

useAppsApi();

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
    expectFieldError(
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
