// Notifications by e-mail through an outbox: the record is written in the transaction that
// decides to notify, then a durable job delivers it by SMTP (nodemailer) and retries with
// backoff until it is sent. Without SMTP_URL the record stays in the outbox, unsent.
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

export interface Notification {
  tenantId: number;
  recipient: string;
  subject: string;
  body: string;
}

export interface OutboxRecord extends Notification {
  id: number;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
}

/** Sends one message; nodemailer's SMTP transport in production. */
export interface MailTransport {
  send(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

export function smtpTransport(url: string): MailTransport {
  // Loaded at the first message: a server that sends none keeps nodemailer's memory.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((mailer) => mailer.default.createTransport(url));
      await (await transport).sendMail(message);
    },
  };
}

export const DELIVERY_QUEUE = 'notifications.deliver';

/** A delivery job's data: which notification to send. */
export interface Delivery {
  tenantId: number;
  id: number;
}
export const PRUNE_QUEUE = 'notifications.prune';
/** Sent notifications are kept this long (to answer "was it sent?"), then pruned. */
export const SENT_RETENTION_DAYS = 30;

export class Outbox {
  private readonly db: DatabaseHandle;
  private readonly jobs: JobQueue;
  private readonly transport: MailTransport | undefined;
  private readonly from: string;
  private readonly log: () => FastifyBaseLogger | undefined;

  constructor(
    db: DatabaseHandle,
    jobs: JobQueue,
    transport: MailTransport | undefined,
    from: string,
    log: () => FastifyBaseLogger | undefined,
  ) {
    this.db = db;
    this.jobs = jobs;
    this.transport = transport;
    this.from = from;
    this.log = log;
  }

  /** Whether notifications leave the server (SMTP_URL is set); else they are kept unsent. */
  get sends(): boolean {
    return this.transport !== undefined;
  }

  /** Records a notification in the caller's transaction and schedules its delivery. */
  async enqueue(sql: RawSql, notification: Notification): Promise<number> {
    const [row] = await sql.query<{ id: number }>(
      'insert into notification_outbox (tenant_id, recipient, subject, body) values ($1, $2, $3, $4) returning id',
      [notification.tenantId, notification.recipient, notification.subject, notification.body],
    );
    await this.jobs.send(
      DELIVERY_QUEUE,
      { tenantId: notification.tenantId, id: row!.id } satisfies Delivery,
      {},
      sql,
    );
    return row!.id;
  }

  async records(tenantId: number): Promise<OutboxRecord[]> {
    return this.db.query<OutboxRecord>(
      `select id, tenant_id as "tenantId", recipient, subject, body, sent_at as "sentAt", attempts, last_error as "lastError"
         from notification_outbox where tenant_id = $1 order by id`,
      [tenantId],
    );
  }

  /**
   * Queues again what was never sent (say it was kept while SMTP_URL was not set). Deliveries
   * claim their record, so a record queued twice is still sent once.
   */
  async requeueUnsent(): Promise<number> {
    if (!this.transport) return 0;
    const rows = await this.db.query<Delivery>(
      'select tenant_id as "tenantId", id from notification_outbox where sent_at is null order by id limit 10000',
    );
    for (const row of rows) await this.jobs.send(DELIVERY_QUEUE, row);
    return rows.length;
  }

  /** Removes notifications sent more than SENT_RETENTION_DAYS ago; answers how many. */
  async pruneSent(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `with gone as (delete from notification_outbox
          where sent_at < now() - make_interval(days => ${SENT_RETENTION_DAYS}) returning 1)
       select count(*)::int as n from gone`,
    );
    return row!.n;
  }

  async deliver({ tenantId, id }: Delivery): Promise<void> {
    if (!this.transport) {
      await this.db.query(
        "update notification_outbox set last_error = 'SMTP_URL is not set: kept in the outbox' where tenant_id = $1 and id = $2 and sent_at is null",
        [tenantId, id],
      );
      this.log()?.warn(
        { notification: id },
        'notification kept in the outbox: SMTP_URL is not set',
      );
      return;
    }
    const [record] = await this.db.query<OutboxRecord>(
      `update notification_outbox set claimed_until = now() + interval '2 minutes'
        where tenant_id = $1 and id = $2 and sent_at is null and (claimed_until is null or claimed_until < now())
        returning id, recipient, subject, body`,
      [tenantId, id],
    );
    if (!record) return; // sent already, or another worker is sending it
    try {
      await this.transport.send({
        from: this.from,
        to: record.recipient,
        subject: record.subject,
        text: record.body,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.db.query(
        'update notification_outbox set attempts = attempts + 1, last_error = $3, claimed_until = null where tenant_id = $1 and id = $2',
        [tenantId, id, message.slice(0, 1000)],
      );
      this.log()?.warn(
        { notification: id, err: error },
        'notification delivery failed; it will be retried',
      );
      throw error;
    }
    await this.db.query(
      'update notification_outbox set sent_at = now(), attempts = attempts + 1, last_error = null, claimed_until = null where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
  }
}
