// The notifications module: e-mail through an outbox, delivered by a durable job.
import type { AppModule, ModuleContext } from '../../module.ts';
import {
  DELIVERY_QUEUE,
  Outbox,
  type Delivery,
  PRUNE_QUEUE,
  smtpTransport,
  type MailTransport,
} from './outbox.ts';

export type { MailTransport, Outbox } from './outbox.ts';

export interface NotificationsServices {
  outbox: Outbox;
}

export interface NotificationsOptions {
  /** Stands in for SMTP (tests); by default SMTP_URL's transport, or none. */
  mailTransport?: MailTransport;
}

export function createNotificationsModule(
  context: ModuleContext,
  options: NotificationsOptions = {},
): AppModule<NotificationsServices> {
  const { config } = context;
  const transport =
    options.mailTransport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : undefined);
  const outbox = new Outbox(
    context.database,
    context.jobs,
    transport,
    config.smtpFrom,
    context.log,
  );
  return {
    name: 'notifications',
    services: { outbox },
    queues: [
      {
        name: DELIVERY_QUEUE,
        handler: (data: Delivery) => outbox.deliver(data),
        retryLimit: 10,
        retryDelaySeconds: 5,
        expireInSeconds: 120,
        concurrency: 2,
      },
      {
        name: PRUNE_QUEUE,
        handler: async () => {
          await outbox.pruneSent();
        },
        retryLimit: 2,
        retryDelaySeconds: 60,
        expireInSeconds: 300,
        concurrency: 1,
        cron: '17 3 * * *',
      },
    ],
    // What was kept unsent (say SMTP_URL was not set before) goes out once SMTP is there.
    start: async () => {
      await outbox.requeueUnsent();
    },
  };
}
