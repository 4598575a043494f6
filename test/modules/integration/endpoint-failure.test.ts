// A failed creation of an integration endpoint (Status 3).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import {
  createEndpoint,
  ENDPOINT,
  KEY_PATH,
  tenantIdOf,
  viaGateway,
  viaPortal,
  waitFor,
  waitForStatus,
} from './integration-fixtures.ts';
import {
  useEndpointApi,
  provisioner,
  api,
  liveEndpoint,
  deleteEndpoint,
} from './endpoint-fixtures.ts';

useEndpointApi();

describe('a failed creation (Status 3)', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await api.createTenant('doomed-co');
  });

  it('ends in Status 3 when the gateway provisioner fails, keeping the reason for the operator', async () => {
    provisioner.fail('doomed-svc', 'gateway refused the route: quota of routes exceeded');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'doomed-svc',
      ServiceTier: 1,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode).toBe(201);
    const endpoint = await waitForStatus(api, tenant, [3]);
    expect(endpoint).toMatchObject({ ServiceName: 'doomed-svc', Status: 3, ServiceTier: 1 });
    // Permanent: tried once, not retried.
    expect(provisioner.callsFor('doomed-svc')).toBe(1);

    const tenantId = await tenantIdOf(api, tenant);
    const row = await api.services.integration.endpoints.row(tenantId);
    expect(row?.failureReason).toBe('gateway refused the route: quota of routes exceeded');
    // The reason is in the log (the job writes it just after the status), and not in the API.
    const logged = await waitFor('the failure in the log', async () =>
      api.logs.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find(
          (l) => l.msg === 'integration endpoint provisioning failed' && l.service === 'doomed-svc',
        ),
    );
    expect(logged).toMatchObject({
      service: 'doomed-svc',
      reason: 'gateway refused the route: quota of routes exceeded',
    });
    const detail = await api.call({ url: ENDPOINT, tenant });
    expect(detail.body).not.toContain('quota');
  });

  it('has no key and no gateway when failed; the portal shows the failure', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await api.call({ method, url: KEY_PATH, tenant });
      expect(response.statusCode).toBe(404);
    }
    expect(
      (await viaGateway(api, 'doomed-svc', { key: 'x', token: tenant.token })).statusCode,
    ).toBe(404);
    // A portal page opened during the creation learns of the failure from /status.
    const status = await viaPortal(api, 'doomed-svc', '/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      ServiceName: 'doomed-svc',
      Status: 3,
      ServiceTier: 1,
      SubscriptionKeyActive: false,
    });
    const page = await viaPortal(api, 'doomed-svc');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="status"[^>]*data-status="3">Failed</);
    expect(page.body).not.toContain('quota');
  });

  it('notifies AdminMail of the failure with the reason', async () => {
    const tenantId = await tenantIdOf(api, tenant);
    const records = await waitFor('the failure notification', async () => {
      const all = await api.services.outbox.records(tenantId);
      return all.length > 0 ? all : undefined;
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      recipient: 'ops@doomed.example',
      subject: expect.stringMatching(/doomed-svc.*could not be created/) as string,
      sentAt: null,
    });
    expect(records[0]!.body).toContain('quota of routes exceeded');
  });

  it('is replaced by a new POST, which can succeed', async () => {
    provisioner.succeed('doomed-svc');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'doomed-svc',
      ServiceTier: 2,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode, response.body).toBe(201);
    const endpoint = await waitForStatus(api, tenant, [2]);
    expect(endpoint.ServiceTier).toBe(2);
    const tenantId = await tenantIdOf(api, tenant);
    expect((await api.services.integration.endpoints.row(tenantId))?.failureReason).toBeNull();
    const portal = await viaPortal(api, 'doomed-svc', '/status');
    expect(portal.json<{ Status: number }>().Status).toBe(2);
    await deleteEndpoint(tenant);
  });

  it('may be deleted (204) while failed', async () => {
    provisioner.fail('doomed-two', 'no capacity');
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'doomed-two',
          ServiceTier: 0,
          AdminMail: 'ops@doomed.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [3]);
    await deleteEndpoint(tenant);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
  });

  it("holds no name: another tenant may take it, and its portal shows that tenant's endpoint", async () => {
    provisioner.fail('shared-svc', 'no capacity');
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'shared-svc',
          ServiceTier: 0,
          AdminMail: 'ops@doomed.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [3]);
    provisioner.succeed('shared-svc');
    const other = await api.createTenant('shared-co');
    await liveEndpoint(other, 'Shared-Svc', 2);
    const status = await viaPortal(api, 'shared-svc', '/status');
    expect(status.json()).toEqual({
      ServiceName: 'Shared-Svc',
      Status: 2,
      ServiceTier: 2,
      SubscriptionKeyActive: true,
    });
    await deleteEndpoint(other);
    await deleteEndpoint(tenant);
  });

  it('retries a transient failure and ends live (Status 2)', async () => {
    provisioner.failOnce('flaky-svc', new Error('connection reset by the gateway'));
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'flaky-svc',
      ServiceTier: 0,
      AdminMail: 'ops@doomed.example',
    });
    expect(response.statusCode).toBe(201);
    await waitForStatus(api, tenant, [2], 30_000);
    expect(provisioner.callsFor('flaky-svc')).toBe(2);
    await deleteEndpoint(tenant);
  });
});
