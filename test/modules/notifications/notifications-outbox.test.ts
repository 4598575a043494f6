// The outbox keeps notifications until they are sent: records kept while no SMTP was set are sent
// once servers with SMTP start (each queues the unsent records again), once each even when two
// such servers start together; sent records are pruned after their retention.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createServices } from '../../../src/module-wiring.ts';
import {
  SENT_RETENTION_DAYS,
  type MailTransport,
} from '../../../src/modules/notifications/outbox.ts';
import { useTestApi } from '../../support/test-api.ts';
import { waitFor } from '../integration/integration-fixtures.ts';

const api = useTestApi({ JOB_POLLING_INTERVAL_SECONDS: '1' });
let tenantId: number;

beforeAll(async () => {
  await api.createTenant('acme');
  tenantId = (await api.services.tenants.findByName('acme'))!.id;
});

class RecordingTransport implements MailTransport {
  readonly sent: { to: string; subject: string }[] = [];
  async send(message: { to: string; subject: string }): Promise<void> {
    this.sent.push({ to: message.to, subject: message.subject });
  }
}

describe('notification outbox', () => {
  it('sends what was kept without SMTP once servers with SMTP start, once each', async () => {
    const id = await api.database.handle.rawTransaction((sql) =>
      api.services.outbox.enqueue(sql, {
        tenantId,
        recipient: 'ops@example.com',
        subject: 'Kept',
        body: 'Hello',
      }),
    );
    await waitFor('the record to be kept unsent', async () => {
      const row = (await api.services.outbox.records(tenantId)).find((r) => r.id === id);
      return row?.lastError?.includes('SMTP_URL') ? row : undefined;
    });

    // Only servers with SMTP run jobs from here on (as when the operator adds SMTP_URL). Two
    // start together: each queues the unsent record again at its start.
    await api.services.jobs.stop();
    const transport = new RecordingTransport();
    const servers = await Promise.all(
      [1, 2].map(() =>
        buildApp(createServices(api.config, api.database.handle, { mailTransport: transport }), {
          logStream: api.logs,
        }),
      ),
    );
    try {
      const sent = await waitFor('the kept record to be sent', async () => {
        const row = (await api.services.outbox.records(tenantId)).find((r) => r.id === id);
        return row?.sentAt ? row : undefined;
      });
      expect(sent.lastError).toBeNull();
      expect(sent.attempts).toBe(1);
      expect(transport.sent).toEqual([{ to: 'ops@example.com', subject: 'Kept' }]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });

  it('prunes sent records older than the retention, and keeps unsent and recent ones', async () => {
    const sql = api.database.handle;
    const insert = (subject: string, sentAt: string | null) =>
      sql.query(
        `insert into notification_outbox (tenant_id, recipient, subject, body, sent_at)
         values ($1, 'ops@example.com', $2, 'x', ${sentAt ?? 'null'})`,
        [tenantId, subject],
      );
    await insert('old', `now() - make_interval(days => ${SENT_RETENTION_DAYS + 1})`);
    await insert('recent', `now() - interval '1 day'`);
    await insert('unsent', null);
    expect(await api.services.outbox.pruneSent()).toBe(1);
    const subjects = (await api.services.outbox.records(tenantId)).map((r) => r.subject);
    expect(subjects).toEqual(expect.arrayContaining(['recent', 'unsent']));
    expect(subjects).not.toContain('old');
  });
});
