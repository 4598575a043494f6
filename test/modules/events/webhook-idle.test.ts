// An idle webhook dispatcher (docs/operations.md, "What idle instances cost the cluster"): while
// commits wake it, it searches for work when woken, when the next retry it saw is due, and every
// WEBHOOK_POLLING_INTERVAL_MS (30 s by default), not every second (on Citus each search reads
// every shard); and a failed delivery's retry still leaves at its time, not at the next poll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { eventually, WebhookReceiver } from './webhook-receiver-fixtures.ts';

/** The dispatcher's searches across tenants (dispatcher-fan-out.ts, dispatcher-claims.ts). */
const SEARCH =
  /from events where position is null|from webhook_subscriptions s\s+where s\.enabled|from webhook_deliveries d\s+join webhook_subscriptions/;

const receiver = new WebhookReceiver();
let api: TestApi;
let acme: TestTenant;
let hook: string;
/** The searches sent while `counting`. */
const searches: string[] = [];
let counting = false;

beforeAll(async () => {
  const port = await receiver.start();
  hook = `http://127.0.0.1:${port}`;
  api = await startTestApi(
    { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`, WEBHOOK_TIMEOUT_SECONDS: '60' },
    // Retries 2 s after a failure (no jitter), far from the 30 s poll.
    { events: { policy: { baseDelayMs: 2_000, maxDelayMs: 2_000, random: () => 1 } } },
    (handle) => ({
      ...handle,
      query<Row>(text: string, params?: unknown[]) {
        if (counting && SEARCH.test(text)) searches.push(text);
        return handle.query<Row>(text, params);
      },
    }),
  );
  acme = await api.createTenant('acme');
});
afterAll(async () => {
  await api.close();
  await receiver.stop();
});

/** Waits until commits wake the dispatcher, and the rounds of its start are over. */
async function settled(): Promise<void> {
  await eventually(
    async () =>
      ['listening', 'after own commits'].includes(api.services.events.wakeups.state)
        ? true
        : undefined,
    20_000,
    'commits waking the dispatcher',
  );
  await api.services.events.dispatcher.drain();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
}

describe('an idle webhook dispatcher', () => {
  it('searches for work not once in 4 s with nothing to do', async () => {
    await settled();
    searches.length = 0;
    counting = true;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    counting = false;
    // Polling every second, it made 3 searches a round, 4 rounds.
    expect(searches).toEqual([]);
  });

  it('sends a retry at its time, not at the next poll, and searches little meanwhile', async () => {
    const subscribed = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: { Url: `${hook}/retry`, EventTypes: ['tag.*'] },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    receiver.answerNextAt('/retry', 500);
    const tag = await api.call({
      method: 'POST',
      url: '/private/catalog/tag',
      tenant: acme,
      body: { Name: 'retried' },
    });
    expect(tag.statusCode, tag.body).toBe(201);
    await receiver.waitFor(1, 10_000);
    const failedAt = receiver.received[0]!.at;
    searches.length = 0;
    counting = true;
    await receiver.waitFor(2, 15_000);
    counting = false;
    const retriedAfter = receiver.received[1]!.at - failedAt;
    // Due 2 s after the failure was recorded; a poll would have come after 30 s.
    expect(retriedAfter).toBeGreaterThanOrEqual(1_900);
    expect(retriedAfter).toBeLessThan(10_000);
    // The round after the failure was recorded, the one at the retry's time, and the round after
    // the success was recorded (a few searches each), not one round a second.
    expect(searches.length, searches.join('\n---\n')).toBeLessThanOrEqual(16);
  });
});
