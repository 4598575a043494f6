// Shared setup of the token-endpoint tests (split by behaviour): the server, tenants and request helpers.
import { afterAll, beforeAll } from 'vitest';
import { basicAuth, startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { createApp, type CreatedApp } from './oauth-fixtures.ts';

export let api: TestApi;
export let acme: TestTenant;
export let globex: TestTenant;
export const apps: Record<number, CreatedApp> = {};

export const BASE_URL = 'http://acme.localhost:8080';
export const CLIENT_CREDENTIALS = { grant_type: 'client_credentials' };

export const basic = (app: CreatedApp) => basicAuth(app.ApplicationId, app.ApplicationSecret);

/** Registers the file's server: started before its tests, closed after. */
export function useTokenEndpointApi(): void {
  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
    globex = await api.createTenant('globex');
    for (const type of [1, 2, 3, 4]) apps[type] = await createApp(api, acme, type);
  });
  afterAll(() => api.close());
}
