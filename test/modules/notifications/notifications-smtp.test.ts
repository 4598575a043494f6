// The AdminMail notification when provisioning ends, delivered by SMTP (nodemailer) to a real
// SMTP server of the test's own; a refused delivery is retried and the record is never lost.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../../src/modules/notifications/outbox.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  ControlledProvisioner,
  createEndpoint,
  tenantIdOf,
  waitFor,
  waitForStatus,
} from '../integration/integration-fixtures.ts';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const received: Received[] = [];
/** Recipients whose next delivery attempts are refused (a temporary SMTP failure). */
const refuse = new Map<string, number>();

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (raw += chunk));
    stream.on('end', () => {
      const to = session.envelope.rcptTo.map((r) => r.address);
      const refusals = refuse.get(to[0] ?? '') ?? 0;
      if (refusals > 0) {
        refuse.set(to[0]!, refusals - 1);
        const error = new Error('Mailbox busy, try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        return callback(error);
      }
      const from = session.envelope.mailFrom;
      received.push({ from: from ? from.address : undefined, to, raw });
      callback();
    });
  },
});

const provisioner = new ControlledProvisioner();
let api: TestApi;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  api = await startTestApi(
    {
      JOB_POLLING_INTERVAL_SECONDS: '1',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      SMTP_FROM: 'omni@example.com',
    },
    { provisioner },
  );
});
afterAll(async () => {
  await api?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1];
/** The text of a message (nodemailer sends it quoted-printable). */
const textOf = (raw: string) =>
  raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function outboxOf(tenant: TestTenant): Promise<OutboxRecord[]> {
  return api.services.outbox.records(await tenantIdOf(api, tenant));
}

describe('notification by SMTP when provisioning ends', () => {
  it('mails AdminMail when the endpoint is live and marks the outbox record sent', async () => {
    const tenant = await api.createTenant('mail-ok');
    const created = await createEndpoint(api, tenant, {
      ServiceName: 'mail-ok-svc',
      ServiceTier: 1,
      AdminMail: 'admin@mail-ok.example',
    });
    expect(created.statusCode).toBe(201);
    await waitForStatus(api, tenant, [2]);
    const [record] = await waitFor('the record to be sent', async () => {
      const records = await outboxOf(tenant);
      return records.length > 0 && records[0]!.sentAt ? records : undefined;
    });
    expect(record).toMatchObject({ attempts: 1, lastError: null });
    expect(record!.sentAt).toBeInstanceOf(Date);

    const message = received.find((m) => m.to.includes('admin@mail-ok.example'));
    expect(message).toBeDefined();
    expect(message!.from).toBe('omni@example.com');
    expect(subjectOf(message!.raw)).toBe('Integration endpoint mail-ok-svc is ready');
    expect(textOf(message!.raw)).toContain('mail-ok-svc.integration.localhost');
  });

  it('mails AdminMail the reason when provisioning fails', async () => {
    const tenant = await api.createTenant('mail-fail');
    provisioner.fail('mail-fail-svc', 'the gateway has no room for another route');
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'mail-fail-svc',
          ServiceTier: 0,
          AdminMail: 'admin@mail-fail.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [3]);
    const message = await waitFor('the failure mail', async () =>
      received.find((m) => m.to.includes('admin@mail-fail.example')),
    );
    expect(subjectOf(message.raw)).toBe('Integration endpoint mail-fail-svc could not be created');
    expect(textOf(message.raw)).toContain('the gateway has no room for another route');
    // The record is marked sent once the SMTP server's answer is back, just after it received
    // the message.
    const [record] = await waitFor('the record to be sent', async () => {
      const records = await outboxOf(tenant);
      return records.length > 0 && records[0]!.sentAt ? records : undefined;
    });
    expect(record).toMatchObject({ attempts: 1, lastError: null });
  });

  it('keeps the record when the SMTP server refuses it, and retries until it is sent', async () => {
    const tenant = await api.createTenant('mail-retry');
    refuse.set('admin@mail-retry.example', 1);
    expect(
      (
        await createEndpoint(api, tenant, {
          ServiceName: 'mail-retry-svc',
          ServiceTier: 0,
          AdminMail: 'admin@mail-retry.example',
        })
      ).statusCode,
    ).toBe(201);
    await waitForStatus(api, tenant, [2]);

    // The first attempt is refused: the record stays, unsent, with the error.
    const [failed] = await waitFor('the refused attempt', async () => {
      const records = await outboxOf(tenant);
      return records.length > 0 && records[0]!.attempts >= 1 ? records : undefined;
    });
    expect(failed).toMatchObject({ sentAt: null, attempts: 1 });
    expect(failed!.lastError).toMatch(/451|busy/i);
    expect(received.some((m) => m.to.includes('admin@mail-retry.example'))).toBe(false);

    // pg-boss retries it (after 5 to 10 s): then it is delivered and marked sent.
    const [sent] = await waitFor(
      'the retried delivery',
      async () => {
        const records = await outboxOf(tenant);
        return records[0]?.sentAt ? records : undefined;
      },
      30_000,
      250,
    );
    expect(sent).toMatchObject({ attempts: 2, lastError: null });
    expect(received.filter((m) => m.to.includes('admin@mail-retry.example'))).toHaveLength(1);
  }, 90_000); // past Vitest's 30 s: the waits in it (the retry alone comes 5 to 10 s on) bound it
});
