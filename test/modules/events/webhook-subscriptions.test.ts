// /management/webhooks: create, fetch, list, update (enable/disable), delete, rotate the secret.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../support/expectations.ts';
import { useTestApi, useTenant } from '../../support/test-api.ts';

interface SubscriptionJson {
  Id: number;
  Url: string;
  EventTypes: string[];
  Description: string | null;
  OwnerEmail: string | null;
  Enabled: boolean;
  DisabledReason: string | null;
  FailingSince: string | null;
  Secret: string | null;
  PreviousSecretExpiresDate: string | null;
  CreatedDate: string;
  ModifiedDate: string;
}

const api = useTestApi({ WEBHOOK_ALLOWED_HOSTS: 'receiver.internal:9000' });
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
const URL_ = 'https://hooks.example.com/omni';

async function create(body: Record<string, unknown>, tenant = acme) {
  return api.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant,
    body: { Url: URL_, EventTypes: ['item.*'], ...body },
  });
}

describe('POST /management/webhooks', () => {
  it('creates a subscription and shows its secret once', async () => {
    const response = await create({
      Description: 'ERP sync',
      OwnerEmail: 'ops@acme.example',
      EventTypes: ['item.*', 'brand.created', 'integration_endpoint.status_changed'],
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<SubscriptionJson>();
    expect(response.headers.location).toBe(`/management/webhooks/${created.Id}`);
    expect(response.headers.etag).toBeDefined();
    expect(created).toMatchObject({
      Url: URL_,
      EventTypes: ['item.*', 'brand.created', 'integration_endpoint.status_changed'],
      Description: 'ERP sync',
      OwnerEmail: 'ops@acme.example',
      Enabled: true,
      DisabledReason: null,
      FailingSince: null,
      PreviousSecretExpiresDate: null,
    });
    expect(created.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const fetched = await api.call({ url: `/management/webhooks/${created.Id}`, tenant: acme });
    expect(fetched.json<SubscriptionJson>().Secret).toBeNull();
  });

  it('takes http to an allow-listed host', async () => {
    const response = await create({ Url: 'http://receiver.internal:9000/hook' });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('answers 400 for bad URLs, event types and bodies', async () => {
    for (const Url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://[fe80::1]/x',
      'https://a@b.example/',
      'https://x.example/#f',
      'mailto:a@b.c',
    ])
      expectError(await create({ Url }), 400, 'InvalidWebhookUrl');
    for (const EventTypes of [['item.renamed'], ['widget.*'], ['item.*.x'], ['*.created']])
      expectError(await create({ EventTypes }), 400, 'UnknownEventType');
    expectError(await create({ EventTypes: [] }), 400);
    expectError(await create({ EventTypes: ['item.*', 'item.*'] }), 400);
    expectError(await create({ Signature: 'mine' }), 400, 'ValidationFailed');
    expectError(await create({ Secret: 42 }), 400, 'ValidationFailed');
    expectError(await create({ OwnerEmail: 'not an address' }), 400);
    expectError(await create({ Url: 'x'.repeat(2049) }), 400);
    const noBody = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: {},
    });
    expectError(noBody, 400);
  });

  it('needs a management token', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      token: null,
      body: { Url: URL_, EventTypes: ['*'] },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /management/webhooks', () => {
  it('lists the tenant’s subscriptions with paging', async () => {
    const own = await create({}, other);
    expect(own.statusCode).toBe(201);
    const list = await api.call({ url: '/management/webhooks?take=1', tenant: other });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      TotalCount: 1,
      Results: [{ Id: own.json<SubscriptionJson>().Id }],
    });
    const acmeList = await api.call({ url: '/management/webhooks?take=1000', tenant: acme });
    expect(
      acmeList
        .json<{ Results: SubscriptionJson[] }>()
        .Results.some((s) => s.Id === own.json<SubscriptionJson>().Id),
    ).toBe(false);
    expectError(await api.call({ url: '/management/webhooks?take=0', tenant: acme }), 400);
  });
});

describe('GET /management/webhooks/{id}', () => {
  it('answers 404 for an unknown or foreign subscription and 400 for a bad id', async () => {
    const theirs = (await create({}, other)).json<SubscriptionJson>();
    expectError(
      await api.call({ url: `/management/webhooks/${theirs.Id}`, tenant: acme }),
      404,
      'NotFound',
    );
    expectError(await api.call({ url: '/management/webhooks/999999', tenant: acme }), 404);
    expectError(await api.call({ url: '/management/webhooks/abc', tenant: acme }), 400);
  });
});

describe('PUT /management/webhooks/{id}', () => {
  it('updates, disables and enables again, honouring If-Match', async () => {
    const created = await create({});
    const { Id } = created.json<SubscriptionJson>();
    const etag = String(created.headers.etag);
    const disabled = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
      headers: { 'if-match': etag },
      body: { Url: 'https://other.example.com/hook', EventTypes: ['*'], Enabled: false },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({
      Url: 'https://other.example.com/hook',
      EventTypes: ['*'],
      Enabled: false,
      DisabledReason: 'Disabled by a client.',
      Secret: null,
    });
    const stale = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
      headers: { 'if-match': etag },
      body: { Url: URL_, EventTypes: ['*'] },
    });
    expectError(stale, 412);
    const enabled = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
      body: { Id, Url: URL_, EventTypes: ['*'], Enabled: true },
    });
    expect(enabled.json()).toMatchObject({ Enabled: true, DisabledReason: null });
    const mismatch = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
      body: { Id: Id + 1, Url: URL_, EventTypes: ['*'] },
    });
    expectError(mismatch, 400);
    const foreign = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: other,
      body: { Url: URL_, EventTypes: ['*'] },
    });
    expectError(foreign, 404);
  });
});

describe('DELETE /management/webhooks/{id}', () => {
  it('deletes once; then 404', async () => {
    const { Id } = (await create({})).json<SubscriptionJson>();
    expectError(
      await api.call({ method: 'DELETE', url: `/management/webhooks/${Id}`, tenant: other }),
      404,
    );
    const gone = await api.call({
      method: 'DELETE',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
    });
    expect(gone.statusCode).toBe(204);
    expectError(
      await api.call({ method: 'DELETE', url: `/management/webhooks/${Id}`, tenant: acme }),
      404,
    );
    expectError(
      await api.call({ url: `/management/webhooks/${Id}/deliveries`, tenant: acme }),
      404,
    );
  });
});

describe('POST /management/webhooks/{id}/secret', () => {
  it('shows a new secret and when the previous one stops signing', async () => {
    const created = (await create({})).json<SubscriptionJson>();
    const rotated = await api.call({
      method: 'POST',
      url: `/management/webhooks/${created.Id}/secret`,
      tenant: acme,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const body = rotated.json<SubscriptionJson>();
    expect(body.Secret).toMatch(/^whsec_/);
    expect(body.Secret).not.toBe(created.Secret);
    const hours = (Date.parse(body.PreviousSecretExpiresDate!) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expectError(
      await api.call({ method: 'POST', url: '/management/webhooks/999999/secret', tenant: acme }),
      404,
    );
  });
});

describe('GET /management/webhooks/{id}/deliveries', () => {
  it('answers an empty log, and 400 for a bad status filter', async () => {
    const { Id } = (await create({})).json<SubscriptionJson>();
    const log = await api.call({
      url: `/management/webhooks/${Id}/deliveries?status=Failed`,
      tenant: acme,
    });
    expect(log.statusCode).toBe(200);
    expect(log.json()).toEqual({ Results: [], TotalCount: 0 });
    expectError(
      await api.call({ url: `/management/webhooks/${Id}/deliveries?status=Lost`, tenant: acme }),
      400,
    );
    expectError(
      await api.call({ url: `/management/webhooks/${Id}/deliveries/1`, tenant: acme }),
      404,
    );
  });
});

describe('POST /management/webhooks/{id}/replay', () => {
  it('answers 400 for a bad range and 0 when nothing occurred in it', async () => {
    const { Id } = (await create({})).json<SubscriptionJson>();
    const url = `/management/webhooks/${Id}/replay`;
    expectError(
      await api.call({
        method: 'POST',
        url,
        tenant: acme,
        body: { From: 'yesterday', To: '2030-01-01T00:00:00Z' },
      }),
      400,
    );
    expectError(
      await api.call({ method: 'POST', url, tenant: acme, body: { From: '2030-01-01T00:00:00Z' } }),
      400,
    );
    const none = await api.call({
      method: 'POST',
      url,
      tenant: acme,
      body: { From: '2001-01-01T00:00:00Z', To: '2001-01-02T00:00:00Z' },
    });
    expect(none.statusCode, none.body).toBe(202);
    expect(none.json()).toEqual({ Replayed: 0 });
  });
});
