// Bearer tokens at the API (contract §3): a token that stops working on one instance stops
// working on another instance on the same database after its next poll.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createServices, type Services } from '../../../src/module-wiring.ts';
import { LogLines } from '../../support/test-api.ts';
import { expectInvalidToken } from './oauth-fixtures.ts';
import {
  useTokenEnforcementApi,
  api,
  acme,
  APPS,
  appWithToken,
  listApps,
  revoke,
} from './token-enforcement-fixtures.ts';
import { checkInjectedAnswers } from '../../support/openapi-answers.ts';

useTokenEnforcementApi();

describe('invalidation across instances on one database', () => {
  let services2: Services;
  let app2: FastifyInstance;

  beforeAll(async () => {
    services2 = createServices(api.config, api.database.handle);
    app2 = await buildApp(services2, { logStream: new LogLines() });
    checkInjectedAnswers(app2);
    await app2.ready();
    // The test drives the polling itself.
    services2.oauth.tokens.stop();
  });
  afterAll(() => app2.close());

  it('accepts on instance 2 a token issued by instance 1, with the same keys', async () => {
    const { token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
  });

  it('refuses on instance 2, after its next poll, a token revoked on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect((await revoke(app, token)).statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, the tokens of an app deleted on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect(
      (await api.call({ method: 'DELETE', url: `${APPS}/${app.ApplicationId}`, tenant: acme }))
        .statusCode,
    ).toBe(204);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, tokens from before a secret rotation on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    expect(
      (await api.call({ method: 'POST', url: `${APPS}/${app.ApplicationId}/secret`, tenant: acme }))
        .statusCode,
    ).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('refuses on instance 2, after its next poll, tokens from before a type change on instance 1', async () => {
    const { app, token } = await appWithToken(3);
    expect((await listApps(token, acme, app2)).statusCode).toBe(200);
    const put = await api.call({
      method: 'PUT',
      url: `${APPS}/${app.ApplicationId}`,
      tenant: acme,
      body: { Name: 'Demoted', ApplicationTypeId: 1 },
    });
    expect(put.statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(token, acme, app2));
  });

  it('leaves the other cached tokens on instance 2 alone', async () => {
    const a = await appWithToken(3);
    const b = await appWithToken(3);
    expect((await listApps(a.token, acme, app2)).statusCode).toBe(200);
    expect((await listApps(b.token, acme, app2)).statusCode).toBe(200);
    expect((await revoke(a.app, a.token)).statusCode).toBe(200);
    await services2.oauth.tokens.poll();
    expectInvalidToken(await listApps(a.token, acme, app2));
    expect((await listApps(b.token, acme, app2)).statusCode).toBe(200);
  });

  it('verifies on instance 2 a token signed with a key that instance 1 made after instance 2 started', async () => {
    const { app } = await appWithToken(3);
    await api.services.oauth.tokens.keys.rotate();
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    const response = await listApps(token, acme, app2);
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('an instance whose invalidation poll fails (on Citus, a worker down)', () => {
  let services3: Services;
  let app3: FastifyInstance;
  let failing = false;

  beforeAll(async () => {
    // Instance 3 cannot read auth_invalidations while `failing` (a statement across every shard,
    // one of which is on a worker that does not answer); its other statements go through.
    const handle = api.database.handle;
    const unreachable = () =>
      Object.assign(new Error('connection to the remote node failed'), { code: '08006' });
    services3 = createServices(api.config, {
      ...handle,
      query: (text, params) =>
        failing && text.includes('auth_invalidations')
          ? Promise.reject(unreachable())
          : handle.query(text, params),
    });
    app3 = await buildApp(services3, { logStream: new LogLines() });
    checkInjectedAnswers(app3);
    await app3.ready();
    services3.oauth.tokens.stop();
  });
  afterAll(() => app3.close());

  it('checks every token against the database until a poll succeeds again', async () => {
    const a = await appWithToken(3);
    const b = await appWithToken(3);
    expect((await listApps(a.token, acme, app3)).statusCode).toBe(200);
    expect(services3.oauth.tokens.cachedTokens).toBeGreaterThan(0);
    failing = true;
    await expect(services3.oauth.tokens.poll()).rejects.toThrow('remote node');
    expect(services3.oauth.tokens.cachedTokens).toBe(0);
    // Revoked on instance 1 while instance 3 cannot hear of it: refused there all the same.
    expect((await revoke(a.app, a.token)).statusCode).toBe(200);
    expectInvalidToken(await listApps(a.token, acme, app3));
    // The others are served, checked each time, and not kept.
    expect((await listApps(b.token, acme, app3)).statusCode).toBe(200);
    expect(services3.oauth.tokens.cachedTokens).toBe(0);

    failing = false;
    await services3.oauth.tokens.poll();
    expect((await listApps(b.token, acme, app3)).statusCode).toBe(200);
    expect(services3.oauth.tokens.cachedTokens).toBeGreaterThan(0);
    expectInvalidToken(await listApps(a.token, acme, app3));
  });
});
