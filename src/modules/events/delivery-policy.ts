// When deliveries are retried, when they are given up, when a failing subscription is disabled,
// how long an old secret still signs and how long events are kept. One object, so that tests can
// shrink days to milliseconds instead of waiting.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DeliveryPolicy {
  /** The delay before the first retry; each next one doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A delivery still failing this long after its first attempt is given up. */
  retryWindowMs: number;
  /** A subscription whose deliveries failed, with no success, this long is disabled. */
  disableAfterMs: number;
  /** After a secret rotation, the previous secret signs too for this long. */
  previousSecretMs: number;
  /** Events (and delivery records) are kept this long. */
  retentionMs: number;
  /** A claimed delivery whose sender did not report back in this long is sent again. */
  leaseMs: number;
  /** 0..1 (Math.random by default): the jitter of each delay. */
  random: () => number;
}

/**
 * Delays of 1, 2, 4 … minutes, at most 4 hours, each drawn from 50–100 % of its value (jitter,
 * so that receivers coming back are not hit by every sender at once): about 13 attempts over the
 * 24 hours a delivery is retried.
 */
export function defaultPolicy(timeoutMs: number): DeliveryPolicy {
  return {
    baseDelayMs: MINUTE,
    maxDelayMs: 4 * HOUR,
    retryWindowMs: DAY,
    disableAfterMs: 5 * DAY,
    previousSecretMs: DAY,
    retentionMs: 30 * DAY,
    leaseMs: timeoutMs + 5 * SECOND,
    random: Math.random,
  };
}

/** The delay before the next attempt, after `attempts` failed ones (1 or more). */
export function retryDelayMs(policy: DeliveryPolicy, attempts: number): number {
  const full = Math.min(policy.baseDelayMs * 2 ** Math.min(attempts - 1, 40), policy.maxDelayMs);
  return Math.round(full * (0.5 + policy.random() * 0.5));
}
