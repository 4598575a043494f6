// Webhooks sent at commit (docs/reliability.md, "Webhooks sent at commit"): with the dispatcher
// polling every 30 s, a committed write's webhook arrives within seconds; a rolled-back write
// announces nothing; a second dispatcher woken by the same commits sends nothing twice; and on
// PostgreSQL a lost listening connection leaves the dispatcher polling, and is made again. On
// Citus each instance wakes its own dispatcher after its own commits: no NOTIFY to count.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultPolicy } from '../../../src/modules/events/delivery-policy.ts';
import { Dispatcher } from '../../../src/modules/events/dispatcher.ts';
import { DispatcherWakeups } from '../../../src/modules/events/dispatcher-wakeups.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually, WebhookReceiver } from './webhook-receiver-fixtures.ts';

const source = inject('testDatabase');
const onCitus = source.engine === 'postgres' && source.citusWorkers !== undefined;
/** The wakeups' state once commits wake the dispatcher. */
const awake = onCitus ? 'after own commits' : 'listening';

const receiver = new WebhookReceiver();
let allowed: string;
let hook: string;
let api: TestApi;
let acme: TestTenant;

/** An API whose dispatcher polls every `pollingMs` and reconnects its listener after `retryMs`. */
function startApi(pollingMs: number, retryMs: number): Promise<TestApi> {
  return startTestApi(
    {
      WEBHOOK_ALLOWED_HOSTS: allowed,
      WEBHOOK_POLLING_INTERVAL_MS: String(pollingMs),
      WEBHOOK_TIMEOUT_SECONDS: '60',
    },
    { events: { listenRetryMs: retryMs } },
  );
}

beforeAll(async () => {
  const port = await receiver.start();
  allowed = `127.0.0.1:${port}`;
  hook = `http://127.0.0.1:${port}/hook`;
  api = await startApi(30_000, 1_000);
  acme = await api.createTenant('acme');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
});

async function subscribe(on: TestApi, tenant: TestTenant): Promise<void> {
  const response = await on.call({
    method: 'POST',
    url: '/management/webhooks',
    tenant,
    body: { Url: hook, EventTypes: ['tag.*'] },
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function createTag(on: TestApi, tenant: TestTenant, name: string): Promise<number> {
  const response = await on.call({
    method: 'POST',
    url: '/private/catalog/tag',
    tenant,
    body: { Name: name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ Id: number }>().Id;
}

/** The names of the tags whose webhooks arrived. */
const arrivedNames = () => receiver.events().map((e) => e.Data.Name as string);

const waitUntil = <T>(what: string, check: () => T | undefined, timeoutMs = 10_000) =>
  eventually(async () => check(), timeoutMs, what);

describe('a committed write', () => {
  it('is delivered within seconds, not at the next 30 s poll', async () => {
    await subscribe(api, acme);
    await waitUntil(
      'woken by commits',
      () => api.services.events.wakeups.state === awake || undefined,
    );
    // The dispatcher's first rounds are over: it sleeps its 30 s now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = Date.now();
    await createTag(api, acme, 'Prompt');
    await waitUntil('the webhook', () => arrivedNames().includes('Prompt') || undefined, 5_000);
    const arrived = receiver.received.find((r) => r.body.includes('"Prompt"'))!.at;
    expect(arrived - written).toBeLessThan(5_000);
  });

  it('rolled back, announces nothing', async () => {
    const { handle } = api.database;
    const [tenant] = await handle.query<{ id: number }>('select id from tenants where name = $1', [
      'acme',
    ]);
    const tag = await createTag(api, acme, 'Before');
    await waitUntil('the creation', () => arrivedNames().includes('Before') || undefined);
    const heard = api.services.events.wakeups.notifications;
    const rename = (name: string) =>
      handle.rawTransaction(async (sql) => {
        await sql.query('update tags set name = $3 where tenant_id = $1 and id = $2', [
          tenant!.id,
          tag,
          name,
        ]);
        if (name === 'Undone') throw new Error('roll back');
      });
    await expect(rename('Undone')).rejects.toThrow('roll back');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!onCitus) expect(api.services.events.wakeups.notifications).toBe(heard);
    await rename('Done');
    await waitUntil('the commit', () => arrivedNames().includes('Done') || undefined, 5_000);
    if (!onCitus) expect(api.services.events.wakeups.notifications).toBe(heard + 1);
    expect(arrivedNames()).not.toContain('Undone');
  });
});

describe('two dispatchers woken by the same commits', () => {
  it('send each event once', async () => {
    const other = new Dispatcher(
      api.database.handle,
      { notify: async () => undefined, fallbackRecipient: async () => undefined },
      {
        policy: defaultPolicy(60_000),
        clock: () => new Date(),
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
        allowedHosts: [allowed],
        timeoutMs: 60_000,
        pollingIntervalMs: 30_000,
        unwokenPollingIntervalMs: 30_000,
        concurrency: 8,
        crashLimit: 3,
        log: () => undefined,
      },
    );
    const otherWakeups = new DispatcherWakeups(api.database.handle, other, {
      mode: 'commit',
      pollingIntervalMs: 30_000,
      log: () => undefined,
    });
    other.start();
    await otherWakeups.start();
    try {
      const before = receiver.received.length;
      const names = Array.from({ length: 20 }, (_, i) => `Twice ${i}`);
      await Promise.all(names.map((name) => createTag(api, acme, name)));
      await waitUntil(
        'every webhook',
        () => names.every((name) => arrivedNames().includes(name)) || undefined,
      );
      // Time for a second copy of any of them to come.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await Promise.all([api.services.events.dispatcher.drain(), other.drain()]);
      const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(names.length);
      expect(new Set(ids).size).toBe(names.length);
    } finally {
      await otherWakeups.stop();
      await other.stop();
    }
  });
});

describe.skipIf(source.engine === 'pglite' || onCitus)(
  'a lost listening connection (PostgreSQL)',
  () => {
    it('leaves the dispatcher polling, and is made again', async () => {
      // Polling every second; the listener waits 5 s before it connects again.
      const lossy = await startApi(1_000, 5_000);
      try {
        const tenant = await lossy.createTenant('lossy');
        await subscribe(lossy, tenant);
        const { wakeups } = lossy.services.events;
        await waitUntil('listening', () => wakeups.state === 'listening' || undefined);
        const listeners = () =>
          lossy.database.handle.query<{ pid: number }>(
            `select pid from pg_stat_activity
              where datname = current_database() and application_name = 'omni listen event_feed'`,
          );
        expect(await listeners()).toHaveLength(1);
        await lossy.database.handle.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = 'omni listen event_feed'`,
        );
        await waitUntil('the loss', () => wakeups.state === 'lost' || undefined);

        // Delivered by polling while the listener is away.
        await createTag(lossy, tenant, 'Polled');
        await waitUntil('the polled webhook', () => arrivedNames().includes('Polled') || undefined);
        expect(wakeups.state).toBe('lost');

        await waitUntil('listening again', () => wakeups.state === 'listening' || undefined);
        expect(await listeners()).toHaveLength(1);
        const heard = wakeups.notifications;
        await createTag(lossy, tenant, 'Heard');
        await waitUntil('the NOTIFY', () => wakeups.notifications > heard || undefined);
        await waitUntil('the webhook', () => arrivedNames().includes('Heard') || undefined);
      } finally {
        await lossy.close();
      }
    });
  },
);
