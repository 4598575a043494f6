// The outbox keeps notifications until they are sent: records kept while no SMTP was set are
// sent once a server with SMTP starts, and a record queued twice goes out once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createServices } from '../../../src/app.ts';
import type { MailTransport } from '../../../src/modules/notifications/outbox.ts';
import { startTestApi, type TestApi } from '../../support/test-api.ts';
import { waitFor } from './integration-helpers.ts';

let api: TestApi;
let tenantId: number;

beforeAll(async () => {
  api = await startTestApi({ JOB_POLLING_INTERVAL_SECONDS: '1' });
  await api.createTenant('acme');
  tenantId = (await api.services.tenants.findByName('acme'))!.id;
});
afterAll(() => api.close());

class RecordingTransport implements MailTransport {
  readonly sent: { to: string; subject: string }[] = [];
  async send(message: { to: string; subject: string }): Promise<void> {
    this.sent.push({ to: message.to, subject: message.subject });
  }
}

describe('notification outbox', () => {
  it('sends what was kept without SMTP once a server with SMTP starts, once each', async () => {
    const id = await api.database.handle.rawTransaction((sql) =>
      api.services.outbox.enqueue(sql, {
        tenantId,
        recipient: 'ops@example.com',
        subject: 'Kept',
        body: 'Hello',
      }),
    );
    await waitFor('the record to be kept unsent', async () => {
      const [row] = await api.services.outbox.records(tenantId);
      return row?.lastError?.includes('SMTP_URL') ? row : undefined;
    });

    // Only the server with SMTP runs jobs from here on (as when the operator adds SMTP_URL).
    await api.services.jobs.stop();
    const transport = new RecordingTransport();
    const withSmtp = await buildApp(
      createServices(api.config, api.database.handle, { mailTransport: transport }),
      { logStream: api.logs },
    );
    try {
      // Queued again by a second call as well: still sent once.
      await withSmtp.ready();
      const services = createServices(api.config, api.database.handle, {
        mailTransport: transport,
      });
      await services.outbox.deliver(id);
      const sent = await waitFor('the kept record to be sent', async () => {
        const row = (await api.services.outbox.records(tenantId)).find((r) => r.id === id);
        return row?.sentAt ? row : undefined;
      });
      expect(sent.lastError).toBeNull();
      // Delivered again (a duplicate job): nothing more goes out.
      await createServices(api.config, api.database.handle, {
        mailTransport: transport,
      }).outbox.deliver(id);
      expect(transport.sent).toEqual([{ to: 'ops@example.com', subject: 'Kept' }]);
    } finally {
      await withSmtp.close();
    }
  });
});
