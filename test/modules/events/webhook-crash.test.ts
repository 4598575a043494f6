// At-least-once delivery across a SIGKILL: a server killed while a receiver holds its webhook
// request leaves the delivery leased; after the restart the lease runs out and every event is
// delivered, the interrupted one again with the same webhook-id.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  listeningServer,
  migratedDataDir,
  removeTempDirs,
  startServer,
  stopChildren,
} from '../../support/processes.ts';
import { bearerCall, clientToken } from '../../support/http-call.ts';
import { eventually, WebhookReceiver } from './webhook-receiver-fixtures.ts';

const receiver = new WebhookReceiver();
afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
  await receiver.stop();
});

describe('a server killed during a delivery', () => {
  it('delivers every event after the restart, the interrupted one again', async () => {
    const port = await receiver.start();
    receiver.answerNext('hang');
    const dataDir = await migratedDataDir();
    const env = {
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      // Longer than the kill takes on a slow machine: the process dies during a live attempt.
      WEBHOOK_TIMEOUT_SECONDS: '10',
      WEBHOOK_POLLING_INTERVAL_MS: '50',
    };
    const first = await startServer(dataDir, env);
    const host = (serverPort: number) => `demo.localhost:${serverPort}`;
    const call = async (serverPort: number, method: string, path: string, body?: unknown) => {
      const token = await clientToken(
        serverPort,
        host(serverPort),
        first.demo.appId,
        first.demo.secret,
      );
      return bearerCall(
        serverPort,
        host(serverPort),
        token,
        method,
        path,
        body === undefined ? undefined : JSON.stringify(body),
      );
    };
    const subscription = await call(first.port, 'POST', '/management/webhooks', {
      Url: `http://127.0.0.1:${port}/hook`,
      EventTypes: ['tag.created'],
    });
    expect(subscription.status, subscription.text).toBe(201);
    const { Id } = JSON.parse(subscription.text) as { Id: number };
    for (const name of ['one', 'two', 'three']) {
      const tag = await call(first.port, 'POST', '/private/catalog/tag', { Name: name });
      expect(tag.status, tag.text).toBe(201);
    }
    // The receiver holds the first delivery without answering: kill the server there.
    await receiver.waitFor(1);
    first.server.child.kill('SIGKILL');
    expect((await first.server.waitForExit()).signal).toBe('SIGKILL');
    const interrupted = String(receiver.received[0]!.headers['webhook-id']);

    const second = await listeningServer(dataDir, env);
    await eventually(
      async () =>
        new Set(receiver.events().map((e) => e.Data.Name)).size === 3 &&
        receiver.received.length >= 4
          ? true
          : undefined,
      90_000,
      'every event delivered after the restart',
    );
    // The interrupted delivery came again with the same id; each other event at least once.
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(ids.filter((id) => id === interrupted).length).toBeGreaterThanOrEqual(2);
    type Log = { Results: { Status: string; Attempts: number; EventId: string }[] };
    const deliveries = await eventually(async () => {
      const log = await call(second.port, 'GET', `/management/webhooks/${Id}/deliveries`);
      const { Results } = JSON.parse(log.text) as Log;
      return Results.every((d) => d.Status === 'Succeeded') ? Results : undefined;
    }, 60_000);
    expect(deliveries).toHaveLength(3);
    expect(deliveries.find((d) => d.EventId === interrupted)?.Attempts).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
