// Shared setup of the apps tests (split by behaviour): the server, tenants and request helpers.
import { afterAll, beforeAll } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';

export let api: TestApi;
export let acme: TestTenant;
export let globex: TestTenant;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const TYPE_DESCRIPTIONS: Record<number, string> = {
  1: 'Consumer',
  2: 'Private',
  3: 'Management',
  4: 'Device',
};
export const APPS = '/management/oauth/apps';

export async function getApp(id: string, tenant: TestTenant = acme) {
  return api.call({ url: `${APPS}/${id}`, tenant });
}

/** Registers the file's server: started before its tests, closed after. */
export function useAppsApi(): void {
  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
    globex = await api.createTenant('globex');
  });
  afterAll(() => api.close());
}
