// Deleting an integration endpoint whose creation is in progress; ETag and If-Match.
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, type TestTenant } from '../../support/test-api.ts';
import { createEndpoint, ENDPOINT, KEY_PATH, sleep, tenantIdOf } from './integration-fixtures.ts';
import {
  useEndpointApi,
  provisioner,
  api,
  liveEndpoint,
  deleteEndpoint,
} from './endpoint-fixtures.ts';

useEndpointApi();

describe('deleting a creation in progress', () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await api.createTenant('cancel-co');
  });

  it('cancels the job: nothing goes live, nobody is notified, the name is free', async () => {
    const release = provisioner.hold('cancel-svc');
    const response = await createEndpoint(api, tenant, {
      ServiceName: 'cancel-svc',
      ServiceTier: 0,
      AdminMail: 'ops@cancel.example',
    });
    expect(response.statusCode).toBe(201);
    const tenantId = await tenantIdOf(api, tenant);
    const jobId = (await api.services.integration.endpoints.row(tenantId))?.jobId;
    expect(jobId).toBeTruthy();
    await provisioner.reached('cancel-svc');

    await deleteEndpoint(tenant);
    const [job] = await api.database.handle.query<{ state: string }>(
      'select state::text from pgboss.job where id = $1',
      [jobId],
    );
    expect(job?.state).toBe('cancelled');
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);

    // The provisioner answers late: the deleted endpoint is not brought back.
    release();
    await sleep(500);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
    expect(await api.services.outbox.records(tenantId)).toEqual([]);

    // The name is free at once, for this tenant or another.
    const other = await api.createTenant('cancel-other');
    await liveEndpoint(other, 'cancel-svc');
    await deleteEndpoint(other);
  });

  it('cancels a creation whose job has not started yet', async () => {
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'queued-svc',
          ServiceTier: 0,
          AdminMail: 'ops@cancel.example',
        })
      ).statusCode,
    ).toBe(201);
    const tenantId = await tenantIdOf(api, tenant);
    const jobId = (await api.services.integration.endpoints.row(tenantId))?.jobId;
    await deleteEndpoint(tenant);
    const [job] = await api.database.handle.query<{ state: string }>(
      'select state::text from pgboss.job where id = $1',
      [jobId],
    );
    expect(job?.state).toBe('cancelled');
    // Longer than a polling interval: a worker would have taken the job by now.
    await sleep(1200);
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(404);
    expect(await api.services.outbox.records(tenantId)).toEqual([]);
  });
});

describe('ETag and If-Match', () => {
  it('answers an ETag that changes with the status and the key, and refuses a stale If-Match on DELETE (412)', async () => {
    const tenant = await api.createTenant('etagco');
    await liveEndpoint(tenant, 'etag-co');
    const first = await api.call({ url: ENDPOINT, tenant });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect((await api.call({ url: ENDPOINT, tenant })).headers.etag).toBe(etag);

    expect((await api.call({ method: 'POST', url: KEY_PATH, tenant })).statusCode).toBe(200);
    const after = (await api.call({ url: ENDPOINT, tenant })).headers.etag as string;
    expect(after).not.toBe(etag);

    const stale = await api.call({
      method: 'DELETE',
      url: ENDPOINT,
      tenant,
      headers: { 'if-match': etag },
    });
    expect(stale.statusCode).toBe(412);
    expect(errorBody(stale).Code).toBe('PreconditionFailed');
    expect((await api.call({ url: ENDPOINT, tenant })).statusCode).toBe(200);

    const current = await api.call({
      method: 'DELETE',
      url: ENDPOINT,
      tenant,
      headers: { 'if-match': after },
    });
    expect(current.statusCode).toBe(204);
  });
});
