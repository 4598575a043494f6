// The events module's settings (webhooks), from the environment (src/config.ts composes every
// module's).
import { hostPortList, integer, oneOf, type Env } from '../../config/env-readers.ts';
import type { WakeMode } from './dispatcher-wakeups.ts';

export interface EventsSettings {
  /**
   * Webhook receivers, each a host AND a port (`127.0.0.1:9000`, `[::1]:9000`,
   * `hooks.internal:8443`, in the form a parsed URL gives them: lower case, IPv6 compressed in
   * brackets), that may be called over http and may resolve to loopback, private or link-local
   * addresses. Other ports of those hosts are refused.
   */
  webhookAllowedHosts: string[];
  /** How long one webhook delivery may take (connect to end of the answer). */
  webhookTimeoutSeconds: number;
  /**
   * How often an idle webhook dispatcher looks for events and due deliveries by itself, besides
   * its wakes (a commit, a send recorded) and the next retry's due time: 30 s by default when
   * commits wake it (WEBHOOK_WAKE=commit: polling finds only what no wake announced), 1 s with
   * WEBHOOK_WAKE=poll. While wakes cannot come (a listening connection lost) it polls at most
   * every second.
   */
  webhookPollingIntervalMs: number;
  /**
   * `commit`: a commit that recorded events wakes the dispatchers (LISTEN/NOTIFY; on Citus each
   * instance after its own writes), polling being the fallback; `poll`: polling only (behind a
   * pooler that does not keep a session's LISTEN, such as PgBouncer in transaction mode).
   */
  webhookWake: WakeMode;
  /** Webhook deliveries one instance sends at the same time. */
  webhookConcurrency: number;
}

export function eventsSettings(env: Env): EventsSettings {
  const webhookWake = oneOf<WakeMode>(env, 'WEBHOOK_WAKE', ['commit', 'poll'], 'commit');
  return {
    webhookAllowedHosts: hostPortList(env, 'WEBHOOK_ALLOWED_HOSTS'),
    webhookTimeoutSeconds: integer(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60),
    webhookPollingIntervalMs: integer(
      env,
      'WEBHOOK_POLLING_INTERVAL_MS',
      webhookWake === 'commit' ? 30_000 : 1000,
      10,
      60_000,
    ),
    webhookWake,
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
  };
}
