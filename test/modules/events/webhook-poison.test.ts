// A webhook delivery whose sends end their process (poison): each claim whose lease runs out with
// no result recorded is counted, and after JOB_CRASH_LIMIT (3) such claims the delivery is given
// up — failed, with the reason in LastError — instead of being sent again. Here a dispatcher
// claims the delivery and "dies" (never records a result) three times; the next one gives it up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicy } from '../../../src/modules/events/delivery-policy.ts';
import { Dispatcher } from '../../../src/modules/events/dispatcher.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually, TestClock, WebhookReceiver } from './webhook-receiver-fixtures.ts';

let api: TestApi;
let acme: TestTenant;
const receiver = new WebhookReceiver();
const clock = new TestClock();
let hook: string;
let allowed: string;

beforeAll(async () => {
  const port = await receiver.start();
  hook = `http://127.0.0.1:${port}/hook`;
  allowed = `127.0.0.1:${port}`;
  api = await startTestApi({ WEBHOOK_ALLOWED_HOSTS: allowed }, { events: { clock: clock.now } });
  // The app's own dispatcher stands aside: the test's dispatchers are the only senders.
  await api.services.events.dispatcher.stop();
  acme = await api.createTenant('acme');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
});

function dispatcher(): Dispatcher {
  return new Dispatcher(
    api.database.handle,
    { notify: async () => undefined, fallbackRecipient: async () => undefined },
    {
      policy: defaultPolicy(1000),
      clock: clock.now,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      allowedHosts: [allowed],
      timeoutMs: 1000,
      pollingIntervalMs: 20,
      unwokenPollingIntervalMs: 20,
      concurrency: 4,
      crashLimit: 3,
      log: () => undefined,
    },
  );
}

describe('a webhook delivery whose sends end their process', () => {
  it('is given up after 3 lost claims, with the reason, and never sent', async () => {
    const subscribed = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: { Url: hook, EventTypes: ['tag.*'] },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    const subscription = subscribed.json<{ Id: number }>().Id;
    const tag = await api.call({
      method: 'POST',
      url: '/private/catalog/tag',
      tenant: acme,
      body: { Name: 'Poison' },
    });
    expect(tag.statusCode, tag.body).toBe(201);

    const lease = defaultPolicy(1000).leaseMs;
    // The tag's event becomes a delivery once fanned out (placed in the feed first).
    const fanning = dispatcher();
    await eventually(async () => ((await fanning.fanOut(clock.now())) > 0 ? true : undefined));
    for (let lost = 0; lost < 3; lost++) {
      // A sender claims it and its process ends before it records anything.
      const claimed = await dispatcher().claim(clock.now(), 10);
      expect(claimed.map((d) => d.lostClaims)).toEqual([lost]);
      clock.advance(lease + 1000);
    }
    const survivor = dispatcher();
    await survivor.step();
    await survivor.drain();

    expect(receiver.received).toHaveLength(0);
    const log = await api.call({
      url: `/management/webhooks/${subscription}/deliveries`,
      tenant: acme,
    });
    expect(log.statusCode, log.body).toBe(200);
    const [delivery] = log.json<{ Results: { Status: string; LastError: string | null }[] }>()
      .Results;
    expect(delivery).toMatchObject({
      Status: 'Failed',
      LastError:
        'Given up: its sends ended the server process 3 times (JOB_CRASH_LIMIT 3); it is not sent again by itself.',
    });
    // Later rounds leave it be.
    clock.advance(lease + 1000);
    expect(await survivor.claim(clock.now(), 10)).toEqual([]);
  });
});
