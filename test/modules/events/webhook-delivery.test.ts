// Webhook deliveries to a real receiver on loopback (allow-listed): Standard Webhooks signatures,
// retries with backoff, per-resource order, replays, redirects and timeouts, SSRF refusals,
// secret rotation and the disabling of a failing subscription.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually, TestClock, WebhookReceiver } from './webhook-receiver-fixtures.ts';

interface SubscriptionJson {
  Id: number;
  Secret: string | null;
  Enabled: boolean;
  DisabledReason: string | null;
}
interface DeliveryJson {
  Id: number;
  EventId: string;
  Status: string;
  Attempts: number;
  ResponseStatusCode: number | null;
  DurationMs: number | null;
  LastError: string | null;
  ReplayOf: number | null;
}

let api: TestApi;
let acme: TestTenant;
let other: TestTenant;
const receiver = new WebhookReceiver();
let hook: string;
const clock = new TestClock();
/** Names the injected resolver answers, as a DNS server would. */
const dns: Record<string, string> = { 'evil.test': '127.0.0.1', 'public.test': '93.184.216.34' };

beforeAll(async () => {
  const port = await receiver.start();
  hook = `http://127.0.0.1:${port}/hook`;
  api = await startTestApi(
    {
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      WEBHOOK_POLLING_INTERVAL_MS: '20',
      // Long enough that a slow machine never turns an answer into a timeout and a retry (the
      // timeout's own test has an API of its own with 1 s).
      WEBHOOK_TIMEOUT_SECONDS: '60',
    },
    {
      events: {
        clock: clock.now,
        policy: { baseDelayMs: 100, maxDelayMs: 400, random: () => 1 },
        resolve: async (name) => {
          if (name === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
          const address = dns[name];
          if (!address) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
          return [{ address, family: 4 }];
        },
      },
    },
  );
  acme = await api.createTenant('acme');
  other = await api.createTenant('other');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
});
afterEach(async () => {
  // Each test starts with no subscription and a receiver that answers 204.
  for (const tenant of [acme, other]) {
    const list = (await api.call({ url: '/management/webhooks?take=1000', tenant })).json<{
      Results: { Id: number }[];
    }>();
    for (const { Id } of list.Results)
      await api.call({ method: 'DELETE', url: `/management/webhooks/${Id}`, tenant });
  }
  // Sends under way end before the receiver is reset for the next test.
  await api.services.events.dispatcher.drain();
  receiver.reset();
});

async function subscribe(body: Record<string, unknown>, tenant = acme): Promise<SubscriptionJson> {
  const response = await api.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant,
    body: { Url: hook, EventTypes: ['tag.*'], ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function createTag(name: string, tenant = acme): Promise<number> {
  const response = await api.call({
    method: 'POST',
    url: '/private/catalog/tag',
    tenant,
    body: { Name: name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ Id: number }>().Id;
}

async function renameTag(id: number, name: string): Promise<void> {
  const response = await api.call({
    method: 'PUT',
    url: `/private/catalog/tag/${id}`,
    tenant: acme,
    body: { Name: name },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function deliveries(subscriptionId: number, tenant = acme): Promise<DeliveryJson[]> {
  const response = await api.call({
    url: `/management/webhooks/${subscriptionId}/deliveries?take=1000`,
    tenant,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ Results: DeliveryJson[] }>().Results;
}

const headersOf = (index: number) => {
  const { headers } = receiver.received[index]!;
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
};

describe('delivery', () => {
  it('POSTs the event with Standard Webhooks headers that the standardwebhooks package verifies', async () => {
    const subscription = await subscribe({});
    const tagId = await createTag('signed');
    await receiver.waitFor(1);
    const { body } = receiver.received[0]!;
    const verified = new Webhook(subscription.Secret!).verify(body, headersOf(0)) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({
      Type: 'tag.created',
      TenantId: 'acme',
      Resource: 'tag',
      ResourceId: String(tagId),
      Data: { Id: tagId, Name: 'signed' },
    });
    expect(headersOf(0)['webhook-id']).toBe(verified.Id);
    expect(receiver.received[0]!.headers['content-type']).toBe('application/json');
    // The feed has the same event.
    const feed = (await api.call({ url: '/management/events?take=1000', tenant: acme })).json<{
      Results: { Id: string }[];
    }>();
    expect(feed.Results.map((e) => e.Id)).toContain(verified.Id);
    // A wrong secret does not verify.
    const forged = new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    expect(() => forged.verify(body, headersOf(0))).toThrow();
    const [delivery] = await eventually(async () => {
      const log = await deliveries(subscription.Id);
      return log[0]?.Status === 'Succeeded' ? log : undefined;
    });
    expect(delivery).toMatchObject({ Attempts: 1, ResponseStatusCode: 204, LastError: null });
    expect(delivery!.DurationMs).toBeGreaterThanOrEqual(0);
  });

  it('retries a failed delivery with growing delays until it succeeds', async () => {
    receiver.answerNext(500, 503);
    const subscription = await subscribe({});
    await createTag('retried');
    await receiver.waitFor(3);
    const [first, second, third] = receiver.received;
    // Delays of 100 ms, then 200 ms (jitter pinned to its top by the test's random).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(90);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(190);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [delivery] = await eventually(async () => {
      const log = await deliveries(subscription.Id);
      return log[0]?.Status === 'Succeeded' ? log : undefined;
    });
    expect(delivery).toMatchObject({ Attempts: 3, ResponseStatusCode: 204 });
  });

  it('keeps the events of one resource in order while earlier ones are retried', async () => {
    receiver.answerNext(500, 500);
    await subscribe({});
    const tagId = await createTag('v0');
    for (let version = 1; version <= 3; version++) await renameTag(tagId, `v${version}`);
    await receiver.waitFor(6);
    const names = receiver.events().map((e) => e.Data.Name);
    // The created event three times (two failures), then each update once, in order.
    expect(names).toEqual(['v0', 'v0', 'v0', 'v1', 'v2', 'v3']);
    const ids = receiver.events().map((e) => e.Id);
    expect([...ids].sort()).toEqual(ids);
  });

  it('does not follow redirects', async () => {
    receiver.answerNext({ status: 302, headers: { location: `${hook}/elsewhere` } });
    receiver.fallback = 500;
    const subscription = await subscribe({});
    await createTag('redirected');
    const [delivery] = await eventually(async () => {
      const log = await deliveries(subscription.Id);
      return log[0]?.LastError ? log : undefined;
    });
    expect(delivery).toMatchObject({ Status: 'Pending', ResponseStatusCode: 302 });
    expect(delivery!.LastError).toMatch(/redirects are not followed/);
    expect(
      receiver.received.every((r) => r.headers.host?.endsWith(hook.split('/')[2]!.split(':')[1]!)),
    ).toBe(true);
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
  });

  it('gives up an attempt that gets no answer within the timeout', async () => {
    const port = hook.split(':')[2]!.split('/')[0]!;
    const quick = await startTestApi(
      {
        WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`,
        WEBHOOK_POLLING_INTERVAL_MS: '20',
        WEBHOOK_TIMEOUT_SECONDS: '1',
      },
      {
        events: {
          clock: clock.now,
          policy: { baseDelayMs: 100, maxDelayMs: 400, random: () => 1 },
        },
      },
    );
    try {
      const tenant = await quick.createTenant('acme');
      // On a path of its own: under load a retry of an earlier test's delivery took a 'hang'
      // queued for any path, and this delivery succeeded without the timeout.
      receiver.answerNextAt('/hook-timeout', 'hang');
      const created = await quick.call({
        method: 'POST',
        url: '/management/webhooks',
        tenant,
        body: { Url: `${hook}-timeout`, EventTypes: ['tag.*'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<SubscriptionJson>().Id;
      const tag = await quick.call({
        method: 'POST',
        url: '/private/catalog/tag',
        tenant,
        body: { Name: 'slow' },
      });
      expect(tag.statusCode, tag.body).toBe(201);
      const log = async () =>
        (
          await quick.call({ url: `/management/webhooks/${id}/deliveries?take=1000`, tenant })
        ).json<{ Results: DeliveryJson[] }>().Results;
      const [delivery] = await eventually(async () => {
        const found = await log();
        return found[0]?.LastError ? found : undefined;
      }, 20_000);
      expect(delivery!.LastError).toMatch(/no answer within 1000 ms/);
      expect(delivery!.ResponseStatusCode).toBeNull();
      // The retry gets the default answer.
      await eventually(async () => {
        const found = await log();
        return found[0]?.Status === 'Succeeded' ? found : undefined;
      });
    } finally {
      await quick.services.events.dispatcher.drain();
      await quick.close();
    }
  });

  it('sends only the event types subscribed to, wildcards included', async () => {
    await subscribe({ EventTypes: ['brand.created'] });
    const everything = await subscribe({ EventTypes: ['*'] });
    await createTag('not for brands');
    const brand = await api.call({
      method: 'POST',
      url: '/private/catalog/brand',
      tenant: acme,
      body: { Name: 'B1' },
    });
    expect(brand.statusCode).toBe(201);
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const types = receiver
      .events()
      .map((e) => e.Type)
      .sort();
    expect(types).toEqual(['brand.created', 'brand.created', 'tag.created']);
    expect((await deliveries(everything.Id)).length).toBe(2);
  });
});

describe('replay', () => {
  it('sends one delivery again as a new delivery with the same webhook-id', async () => {
    const subscription = await subscribe({});
    await createTag('replayed');
    const [delivery] = await eventually(async () => {
      const log = await deliveries(subscription.Id);
      return log[0]?.Status === 'Succeeded' ? log : undefined;
    });
    const response = await api.call({
      method: 'POST',
      url: `/management/webhooks/${subscription.Id}/deliveries/${delivery!.Id}/replay`,
      tenant: acme,
    });
    expect(response.statusCode, response.body).toBe(202);
    const replay = response.json<DeliveryJson>();
    expect(replay).toMatchObject({
      ReplayOf: delivery!.Id,
      EventId: delivery!.EventId,
      Status: 'Pending',
    });
    await receiver.waitFor(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(delivery!.EventId);
    const missing = await api.call({
      method: 'POST',
      url: `/management/webhooks/${subscription.Id}/deliveries/999999/replay`,
      tenant: acme,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('sends again every subscribed event of a time range', async () => {
    const from = clock.now().toISOString();
    const subscription = await subscribe({});
    await createTag('range-1');
    await createTag('range-2');
    await receiver.waitFor(2);
    const to = new Date(clock.now().getTime() + 1000).toISOString();
    const response = await api.call({
      method: 'POST',
      url: `/management/webhooks/${subscription.Id}/replay`,
      tenant: acme,
      body: { From: from, To: to },
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ Replayed: 2 });
    await receiver.waitFor(4);
    // Order holds per resource; two tags may go out in either order.
    const names = receiver.events().map((e) => String(e.Data.Name));
    expect(names.slice(2).sort()).toEqual(['range-1', 'range-2']);
    const backwards = await api.call({
      method: 'POST',
      url: `/management/webhooks/${subscription.Id}/replay`,
      tenant: acme,
      body: { From: to, To: from },
    });
    expect(backwards.statusCode).toBe(400);
  });
});

describe('SSRF protection', () => {
  it('refuses at creation http to hosts not allow-listed and private IP literals', async () => {
    for (const Url of [
      'http://example.com/hook',
      'http://localhost:1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/hook',
      'https://[::1]/hook',
      'https://user:pass@example.com/hook',
      'ftp://example.com/',
      'not a url',
    ]) {
      const response = await api.call({
        method: 'POST',
        url: '/management/webhooks',
        tenant: acme,
        body: { Url, EventTypes: ['*'] },
      });
      expect(response.statusCode, Url).toBe(400);
      expect(response.json<{ Code: string }>().Code).toBe('InvalidWebhookUrl');
    }
  });

  it('refuses at delivery a name that resolves to loopback when it is not allow-listed', async () => {
    const port = hook.split(':')[2]!.split('/')[0]!;
    const byName = await subscribe({ Url: `https://localhost:${port}/hook` });
    const byInjectedDns = await subscribe({ Url: `https://evil.test:${port}/hook` });
    await createTag('ssrf');
    for (const subscription of [byName, byInjectedDns]) {
      const [delivery] = await eventually(async () => {
        const log = await deliveries(subscription.Id);
        return log[0]?.LastError ? log : undefined;
      });
      expect(delivery!.LastError).toMatch(/resolves to a non-public address/);
      expect(delivery!.LastError).not.toContain('127.0.0.1');
      expect(delivery!.ResponseStatusCode).toBeNull();
    }
    // Nothing of this tag reached the receiver (a late retry of an earlier test's may have).
    expect(receiver.events().filter((event) => event.Data.Name === 'ssrf')).toEqual([]);
  });
});

describe('tenants', () => {
  it('keeps subscriptions and their deliveries to their tenant', async () => {
    const mine = await subscribe({});
    const theirs = await subscribe({}, other);
    for (const [method, url] of [
      ['GET', `/management/webhooks/${mine.Id}`],
      ['PUT', `/management/webhooks/${mine.Id}`],
      ['DELETE', `/management/webhooks/${mine.Id}`],
      ['POST', `/management/webhooks/${mine.Id}/secret`],
      ['GET', `/management/webhooks/${mine.Id}/deliveries`],
      ['POST', `/management/webhooks/${mine.Id}/replay`],
    ] as const) {
      const response = await api.call({
        method,
        url,
        tenant: other,
        ...(method === 'PUT'
          ? { body: { Url: hook, EventTypes: ['*'] } }
          : url.endsWith('replay')
            ? { body: { From: '2020-01-01T00:00:00Z', To: '2030-01-01T00:00:00Z' } }
            : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = (await api.call({ url: '/management/webhooks', tenant: other })).json<{
      Results: { Id: number }[];
    }>();
    expect(list.Results.map((s) => s.Id)).toEqual([theirs.Id]);
    // acme's event reaches acme's subscription only.
    await createTag('acme only');
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.events().map((e) => e.TenantId)).toEqual(['acme']);
    expect(await deliveries(theirs.Id, other)).toEqual([]);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const subscription = await subscribe({});
    const rotated = await api.call({
      method: 'POST',
      url: `/management/webhooks/${subscription.Id}/secret`,
      tenant: acme,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { Secret: newSecret, PreviousSecretExpiresDate } = rotated.json<{
      Secret: string;
      PreviousSecretExpiresDate: string;
    }>();
    expect(newSecret).not.toBe(subscription.Secret);
    expect(Date.parse(PreviousSecretExpiresDate) - clock.now().getTime()).toBeGreaterThan(
      23 * 3600_000,
    );
    const fetched = await api.call({
      url: `/management/webhooks/${subscription.Id}`,
      tenant: acme,
    });
    expect(fetched.json<{ Secret: string | null }>().Secret).toBeNull();

    await createTag('both secrets');
    await receiver.waitFor(1);
    expect(headersOf(0)['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [newSecret, subscription.Secret!])
      expect(() =>
        new Webhook(secret).verify(receiver.received[0]!.body, headersOf(0)),
      ).not.toThrow();

    clock.advance(24 * 3600_000 + 60_000);
    await createTag('new secret only');
    await receiver.waitFor(2);
    // The timestamp is the (moved) clock's: verify as of then.
    const verify = (secret: string) => {
      const realNow = Date.now;
      Date.now = () => realNow() + clock.offsetMs;
      try {
        return new Webhook(secret).verify(receiver.received[1]!.body, headersOf(1));
      } finally {
        Date.now = realNow;
      }
    };
    expect(() => verify(newSecret)).not.toThrow();
    expect(() => verify(subscription.Secret!)).toThrow();
  });
});

describe('disabling a failing subscription', () => {
  it('disables a subscription whose deliveries failed for 5 days and tells its owner', async () => {
    receiver.fallback = 500;
    const subscription = await subscribe({ OwnerEmail: 'owner@example.com' });
    await createTag('failing');
    // The first failure is recorded before time moves.
    await eventually(async () =>
      (await deliveries(subscription.Id))[0]?.LastError ? true : undefined,
    );
    // Days pass with every attempt failing; the delivery is given up after 24 hours.
    clock.advance(2 * 86_400_000);
    await eventually(async () =>
      (await deliveries(subscription.Id))[0]?.Status === 'Failed' ? true : undefined,
    );
    const afterTwoDays = (
      await api.call({ url: `/management/webhooks/${subscription.Id}`, tenant: acme })
    ).json<SubscriptionJson>();
    expect(afterTwoDays.Enabled).toBe(true);
    await createTag('still failing');
    clock.advance(3 * 86_400_000 + 60_000);
    const disabled = await eventually(async () => {
      const s = (
        await api.call({ url: `/management/webhooks/${subscription.Id}`, tenant: acme })
      ).json<SubscriptionJson>();
      return s.Enabled ? undefined : s;
    });
    expect(disabled.DisabledReason).toMatch(/failed for 5 days/);
    const log = await deliveries(subscription.Id);
    expect(log.map((d) => d.Status)).toContain('Failed');
    const [row] = await api.database.handle.query<{ id: number }>(
      "select id from tenants where name = 'acme'",
    );
    const tenantId = row!.id;
    const mails = await api.services.outbox.records(tenantId);
    expect(mails.find((m) => m.recipient === 'owner@example.com')?.subject).toMatch(
      new RegExp(`subscription ${subscription.Id} was disabled`),
    );
    // Nothing more is sent while it is disabled; enabling it again starts afresh.
    const before = receiver.received.length;
    await createTag('while disabled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.length).toBe(before);
    receiver.fallback = 204;
    const enabled = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${subscription.Id}`,
      tenant: acme,
      body: { Url: hook, EventTypes: ['tag.*'], Enabled: true },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({
      Enabled: true,
      DisabledReason: null,
      FailingSince: null,
    });
    await createTag('after enabling');
    await eventually(async () =>
      receiver.events().some((e) => e.Data.Name === 'after enabling') ? true : undefined,
    );
  });
});
