// What a failed delivery tells the tenant names no address the server resolved (issue 52): a name
// of the operator's network resolving to a private address is "a non-public address", and a
// refused connection to an allow-listed internal name names the URL's host, not its address. The
// operator's log keeps both: the refusal at warn level, the failed connection at info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/listening-api.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually } from './webhook-receiver-fixtures.ts';

interface DeliveryJson {
  LastError: string | null;
  ResponseStatusCode: number | null;
}
interface LogLine {
  level: number;
  msg: string;
  host?: string;
  address?: string;
  tenantId?: number;
  subscriptionId?: number;
}

const PRIVATE_ADDRESS = '10.20.30.40';
/** Names the injected resolver answers, as the operator's DNS would. */
const dns: Record<string, string> = {
  'intranet.test': PRIVATE_ADDRESS,
  'closed.test': '127.0.0.1',
};

let api: TestApi;
let acme: TestTenant;
/** A loopback port where nothing listens. */
let closedPort: number;

beforeAll(async () => {
  closedPort = await freePort();
  api = await startTestApi(
    {
      WEBHOOK_ALLOWED_HOSTS: `closed.test:${closedPort}`,
      WEBHOOK_POLLING_INTERVAL_MS: '20',
    },
    {
      events: {
        policy: { baseDelayMs: 60_000, maxDelayMs: 60_000, random: () => 1 },
        resolve: async (name) => {
          const address = dns[name];
          if (!address) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
          return [{ address, family: 4 }];
        },
      },
    },
  );
  acme = await api.createTenant('acme');
});
afterAll(() => api?.close());

async function subscribe(url: string): Promise<number> {
  const response = await api.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant: acme,
    body: { Url: url, EventTypes: ['tag.*'] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ Id: number }>().Id;
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

/** The subscription's delivery log as the tenant reads it, once its first attempt failed. */
async function failedDeliveries(id: number): Promise<{ text: string; first: DeliveryJson }> {
  return eventually(async () => {
    const response = await api.call({
      url: `/management/webhooks/${id}/deliveries?take=1000`,
      tenant: acme,
    });
    const [first] = response.json<{ Results: DeliveryJson[] }>().Results;
    return first?.LastError ? { text: response.body, first } : undefined;
  });
}

const logLines = (): LogLine[] => api.logs.lines.map((line) => JSON.parse(line) as LogLine);

describe('a failed delivery, as the tenant reads it and as the operator logs it', () => {
  it('a name resolving to a private address: "a non-public address" for the tenant', async () => {
    const id = await subscribe('https://intranet.test/hook');
    await createTag('intranet');
    const { text, first } = await failedDeliveries(id);
    expect(first.LastError).toMatch(/^intranet\.test resolves to a non-public address \(/);
    expect(first.ResponseStatusCode).toBeNull();
    expect(text).not.toContain(PRIVATE_ADDRESS);
    const subscription = await api.call({ url: `/management/webhooks/${id}`, tenant: acme });
    expect(subscription.body).not.toContain(PRIVATE_ADDRESS);

    const logged = logLines().find((line) => line.address === PRIVATE_ADDRESS);
    expect(logged).toMatchObject({
      level: 40,
      host: 'intranet.test',
      tenantId: expect.any(Number) as number,
      subscriptionId: id,
    });
    expect(logged!.msg).toContain('intranet.test');
  });

  it('a refused connection to an allow-listed name: its host and port, not its address', async () => {
    const id = await subscribe(`http://closed.test:${closedPort}/hook`);
    await createTag('closed');
    const { text, first } = await failedDeliveries(id);
    expect(first.LastError).toBe(`connect ECONNREFUSED closed.test:${closedPort}`);
    expect(text).not.toContain('127.0.0.1');

    const logged = logLines().find(
      (line) => line.subscriptionId === id && line.address === '127.0.0.1',
    );
    expect(logged).toMatchObject({ level: 30 });
    expect(logged!.msg).toContain(`127.0.0.1:${closedPort}`);
  });
});
