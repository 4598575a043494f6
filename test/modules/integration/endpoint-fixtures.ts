// Shared setup of the endpoint tests (split by behaviour): the server, tenants and request helpers.
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  ControlledProvisioner,
  createEndpoint,
  ENDPOINT,
  subscriptionKeyOf,
  waitForStatus,
} from './integration-fixtures.ts';

export const provisioner = new ControlledProvisioner();
export let api: TestApi;
export let acme: TestTenant;
export let globex: TestTenant;

export const valid = { ServiceName: 'valid-name', ServiceTier: 0, AdminMail: 'ops@example.com' };

/** Creates an endpoint and waits until it is live; answers its subscription key. */
export async function liveEndpoint(
  tenant: TestTenant,
  serviceName: string,
  tier = 0,
): Promise<string> {
  const created = await createEndpoint(api, tenant, {
    ServiceName: serviceName,
    ServiceTier: tier,
    AdminMail: `admin@${tenant.name}.example`,
  });
  expect(created.statusCode, created.body).toBe(201);
  await waitForStatus(api, tenant, [2]);
  return subscriptionKeyOf(api, tenant);
}

export async function deleteEndpoint(tenant: TestTenant): Promise<void> {
  const response = await api.call({ method: 'DELETE', url: ENDPOINT, tenant });
  expect(response.statusCode).toBe(204);
}

/** Registers the file's server: started before its tests, closed after. */
export function useEndpointApi(): void {
  beforeAll(async () => {
    api = await startTestApi(
      { JOB_POLLING_INTERVAL_SECONDS: '1', GATEWAY_RATE_LIMITS: '3,5,7' },
      { provisioner },
    );
    acme = await api.createTenant('acme');
    globex = await api.createTenant('globex');
  });
  afterAll(() => api.close());
}
