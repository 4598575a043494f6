// POST /management/oauth/apps/{applicationId}/secret: secret rotation (contract §5.1, §3).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { basicAuth, errorBody } from '../../support/test-api.ts';
import {
  createApp,
  oauthError,
  oauthRequest,
  type AppJson,
  type TokenJson,
} from './oauth-fixtures.ts';
import { useAppsApi, api, acme, globex, APPS, getApp } from './apps-fixtures.ts';
import { expectFieldError } from '../../support/expectations.ts';

useAppsApi();

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
    expectFieldError(
      await api.call({ method: 'POST', url: `${APPS}/bad-id/secret`, tenant: acme }),
      'applicationId',
    );
  });
});
