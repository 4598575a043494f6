// Webhooks name who made the change (docs/api.md, "Events and webhooks"): each event's Actor is
// the one the change history records, for an app's write and a member's in the console; the feed
// answers the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { createMember, signIn } from '../members/members-fixtures.ts';
import { WebhookReceiver } from './webhook-receiver-fixtures.ts';

let api: TestApi;
let acme: TestTenant;
const receiver = new WebhookReceiver();
let hook: string;

beforeAll(async () => {
  const port = await receiver.start();
  hook = `http://127.0.0.1:${port}/hook`;
  api = await startTestApi({
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`,
    WEBHOOK_POLLING_INTERVAL_MS: '20',
    WEBHOOK_TIMEOUT_SECONDS: '60',
  });
  acme = await api.createTenant('acme');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
});

async function call(method: 'POST' | 'PUT', url: string, body: unknown, token?: string) {
  const response = await api.call({ method, url, tenant: acme, body, ...(token ? { token } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<{ Id: number }>();
}

describe('webhook payloads', () => {
  it("carry the app's actor on an item.updated and a member's on a console change", async () => {
    await call('POST', '/management/webhooks', {
      Url: hook,
      EventTypes: ['item.updated', 'brand.updated'],
    });
    const item = await call('POST', '/private/catalog/item', { Title: 'Lantern' });
    await call('PUT', `/private/catalog/item/${item.Id}`, { Title: 'Lantern XL' });
    await receiver.waitFor(1);

    const member = await createMember(api, acme, 'console-editor', ['catalog-editor']);
    // The console's session: a member's token from the browser sign-in.
    const session = await signIn(api, acme, 'console-editor');
    const brand = await call('POST', '/private/catalog/brand', { Name: 'Acme Audio' });
    await call(
      'PUT',
      `/private/catalog/brand/${brand.Id}`,
      { Name: 'Acme Sound' },
      session.access_token,
    );
    await receiver.waitFor(2);

    const [updated, renamed] = receiver.events() as unknown as {
      Type: string;
      ResourceId: string;
      Actor: unknown;
    }[];
    expect(updated).toMatchObject({ Type: 'item.updated', ResourceId: String(item.Id) });
    expect(updated!.Actor).toEqual({
      Type: 'App',
      Id: acme.appId,
      Name: expect.any(String) as string,
    });
    expect(renamed).toMatchObject({ Type: 'brand.updated', ResourceId: String(brand.Id) });
    expect(renamed!.Actor).toEqual({ Type: 'Member', Id: member.Id, Name: 'console-editor' });
    // Type first, compact: the body is the feed's JSON text.
    expect(receiver.received[1]!.body).toContain(
      `"Actor":{"Type":"Member","Id":"${member.Id}","Name":"console-editor"}`,
    );

    const feed = await api.call({ url: '/management/events?take=1000', tenant: acme });
    const events = feed.json<{ Results: { Type: string; Actor: unknown }[] }>().Results;
    expect(events.find((e) => e.Type === 'brand.updated')!.Actor).toEqual(renamed!.Actor);
    // The tenant's first app was made by no caller.
    expect(events.find((e) => e.Type === 'app.created')!.Actor).toEqual({ Type: 'System' });
  });

  it('name the system for an event recorded before events named their actor', async () => {
    const tag = await call('POST', '/private/catalog/tag', { Name: 'old' });
    await api.database.handle.query(
      `update events set actor = null where resource = 'tag' and resource_id = $1`,
      [String(tag.Id)],
    );
    const feed = await api.call({ url: '/management/events?take=1000', tenant: acme });
    const events = feed.json<{ Results: { Type: string; ResourceId: string; Actor: unknown }[] }>();
    const created = events.Results.find(
      (e) => e.Type === 'tag.created' && e.ResourceId === String(tag.Id),
    );
    expect(created!.Actor).toEqual({ Type: 'System' });
  });
});
