// WEBHOOK_ALLOWED_HOSTS lists host AND port: an allow-listed host is reachable on its listed port
// only (at subscription time and again at each delivery), an allow-listed internal receiver's
// reply body never shows in LastError, IPv6 forms embedding an IPv4 address are judged by that
// address, and port 0 is refused. Everything runs on loopback; addresses such as ::a9fe:a9fe are
// only inputs the guard refuses before any connection.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually, WebhookReceiver } from './webhook-receiver-fixtures.ts';

interface DeliveryJson {
  Id: number;
  Status: string;
  ResponseStatusCode: number | null;
  LastError: string | null;
}

let api: TestApi;
let acme: TestTenant;
/** The allow-listed receiver. */
const receiver = new WebhookReceiver();
let allowedPort: number;
/** Another service on the same loopback address (a database, a cache): it must never be reached. */
let otherService: Server;
let otherPort: number;
const otherConnections: Socket[] = [];
/** Names the injected resolver answers, as a DNS server would. */
const dns: Record<string, string> = {
  'receiver.internal': '127.0.0.1',
  'compat-loopback.test': '::7f00:1',
  'compat-metadata.test': '::a9fe:a9fe',
};
/** An event type no test makes: a subscription wrongly accepted gets no delivery. */
const NEVER = ['integration_endpoint.deleted'];

beforeAll(async () => {
  allowedPort = await receiver.start();
  otherService = createServer((socket) => {
    otherConnections.push(socket);
    socket.end('-ERR internal service banner\r\n');
  });
  await new Promise<void>((resolve) => otherService.listen(0, '127.0.0.1', resolve));
  otherPort = (otherService.address() as AddressInfo).port;
  api = await startTestApi(
    {
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${allowedPort},receiver.internal:${allowedPort}`,
      WEBHOOK_POLLING_INTERVAL_MS: '20',
      WEBHOOK_TIMEOUT_SECONDS: '1',
    },
    {
      events: {
        policy: { baseDelayMs: 60_000, random: () => 1 },
        resolve: async (name) => {
          const address = dns[name];
          if (!address) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
          return [{ address, family: address.includes(':') ? 6 : 4 }];
        },
      },
    },
  );
  acme = await api.createTenant('acme');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
  for (const socket of otherConnections) socket.destroy();
  await new Promise<void>((resolve) => otherService.close(() => resolve()));
});
afterEach(async () => {
  const list = (await api.call({ url: '/management/webhooks?take=1000', tenant: acme })).json<{
    Results: { Id: number }[];
  }>();
  for (const { Id } of list.Results)
    await api.call({ method: 'DELETE', url: `/management/webhooks/${Id}`, tenant: acme });
  await api.services.events.dispatcher.drain();
  receiver.reset();
});

async function post(Url: string, EventTypes = NEVER) {
  return api.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant: acme,
    body: { Url, EventTypes },
  });
}

function expectRefused(response: Awaited<ReturnType<typeof post>>, url: string, pattern?: RegExp) {
  expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
  const body = errorBody(response);
  expect(body.Code).toBe('InvalidWebhookUrl');
  expect(body.Errors?.[0]?.Field).toBe('Url');
  if (pattern) expect(body.FriendlyDescription, url).toMatch(pattern);
}

async function createTag(name: string): Promise<void> {
  const response = await api.call({
    method: 'POST',
    url: '/private/catalog/tag',
    tenant: acme,
    body: { Name: name },
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function lastDelivery(subscriptionId: number): Promise<DeliveryJson> {
  return eventually(async () => {
    const response = await api.call({
      url: `/management/webhooks/${subscriptionId}/deliveries`,
      tenant: acme,
    });
    const [delivery] = response.json<{ Results: DeliveryJson[] }>().Results;
    return delivery?.LastError ? delivery : undefined;
  });
}

describe('an allow-listed host on a port not listed', () => {
  it('is refused at create and update with 400 and the error body', async () => {
    for (const url of [
      `http://127.0.0.1:${otherPort}/hook`,
      `https://127.0.0.1:${otherPort}/hook`,
      'http://127.0.0.1/hook',
      `http://receiver.internal:${otherPort}/hook`,
      `https://receiver.internal:${otherPort}/hook`,
    ])
      expectRefused(await post(url), url, /WEBHOOK_ALLOWED_HOSTS/);

    const created = await post(`http://127.0.0.1:${allowedPort}/hook`);
    expect(created.statusCode, created.body).toBe(201);
    const { Id } = created.json<{ Id: number }>();
    const url = `http://127.0.0.1:${otherPort}/hook`;
    const updated = await api.call({
      method: 'PUT',
      url: `/management/webhooks/${Id}`,
      tenant: acme,
      body: { Url: url, EventTypes: NEVER },
    });
    expectRefused(updated, url, /WEBHOOK_ALLOWED_HOSTS/);
    const fetched = await api.call({ url: `/management/webhooks/${Id}`, tenant: acme });
    expect(fetched.json<{ Url: string }>().Url).toBe(`http://127.0.0.1:${allowedPort}/hook`);
  });

  it('is refused again at delivery, without a connection, when a stored URL names it', async () => {
    // As if WEBHOOK_ALLOWED_HOSTS had changed since the subscriptions were made.
    const ids: number[] = [];
    for (const url of [
      `http://127.0.0.1:${otherPort}/hook`,
      `https://receiver.internal:${otherPort}/hook`,
    ]) {
      const created = await post(`http://127.0.0.1:${allowedPort}/hook`, ['tag.*']);
      expect(created.statusCode, created.body).toBe(201);
      const { Id } = created.json<{ Id: number }>();
      await api.database.handle.query('update webhook_subscriptions set url = $1 where id = $2', [
        url,
        Id,
      ]);
      ids.push(Id);
    }
    await createTag('other port');
    for (const id of ids) {
      const delivery = await lastDelivery(id);
      expect(delivery.LastError).toMatch(/WEBHOOK_ALLOWED_HOSTS/);
      expect(delivery.ResponseStatusCode).toBeNull();
    }
    expect(otherConnections.length).toBe(0);
    expect(receiver.received.length).toBe(0);
  });
});

describe('the reply of an allow-listed receiver', () => {
  it('never appears in LastError: the status only', async () => {
    receiver.fallback = { status: 500, body: 'redis_version:7.2.4 INTERNAL-SECRET' };
    const created = await post(`http://127.0.0.1:${allowedPort}/hook`, ['tag.*']);
    expect(created.statusCode, created.body).toBe(201);
    await createTag('reply body');
    const delivery = await lastDelivery(created.json<{ Id: number }>().Id);
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    expect(delivery.ResponseStatusCode).toBe(500);
    expect(delivery.LastError).not.toContain('INTERNAL-SECRET');
    expect(delivery.LastError).toBe('answered 500');
  });
});

describe('IPv6 forms embedding an IPv4 address', () => {
  it('are judged by that address at create: [::127.0.0.1] is loopback, not 127.0.0.1’s entry', async () => {
    for (const url of [
      `https://[::127.0.0.1]:${allowedPort}/hook`,
      `http://[::127.0.0.1]:${allowedPort}/hook`,
      `https://[::7f00:1]:${otherPort}/hook`,
      'https://[::a9fe:a9fe]/latest/meta-data',
      'https://[::169.254.169.254]/latest/meta-data',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'https://[2002:a9fe:a9fe::1]/latest/meta-data',
    ])
      expectRefused(await post(url), url);
  });

  it('are refused at delivery when a name resolves to them', async () => {
    const ids: number[] = [];
    for (const name of ['compat-loopback.test', 'compat-metadata.test']) {
      const created = await post(`https://${name}:${allowedPort}/hook`, ['tag.*']);
      expect(created.statusCode, created.body).toBe(201);
      ids.push(created.json<{ Id: number }>().Id);
    }
    await createTag('embedded');
    const errors = [];
    for (const id of ids) errors.push((await lastDelivery(id)).LastError);
    // The tenant is told the host resolves to a non-public address, never which (issue 52).
    expect(errors[0]).toMatch(/^compat-loopback\.test resolves to a non-public address/);
    expect(errors[1]).toMatch(/^compat-metadata\.test resolves to a non-public address/);
    expect(errors.join(' ')).not.toMatch(/::7f00:1|::a9fe:a9fe/);
    expect(receiver.received.length).toBe(0);
  });
});

describe('port 0', () => {
  it('is refused with 400', async () => {
    for (const url of ['https://hooks.example.com:0/hook', 'http://127.0.0.1:0/hook'])
      expectRefused(await post(url), url, /port 0/i);
  });
});
