// The notifications module's settings, from the environment (src/config.ts composes every module's).
import { read, urlOf, type Env } from '../../config/env-readers.ts';

export interface NotificationsSettings {
  /** smtp:// or smtps:// URL for notifications; without it they stay in the outbox. */
  smtpUrl: string | undefined;
  smtpFrom: string;
}

/** `server.apiHost`: mail comes from `no-reply@<API_HOST>` unless SMTP_FROM says. */
export function notificationsSettings(
  env: Env,
  server: { apiHost: string },
): NotificationsSettings {
  return {
    smtpUrl: urlOf(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: read(env, 'SMTP_FROM') ?? `no-reply@${server.apiHost}`,
  };
}
