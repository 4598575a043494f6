// Retries of calls that are safe to send again: idempotent methods, and writes (POST, PATCH) that
// carry an Idempotency-Key, which the API answers from its stored result instead of running the
// write twice (docs/api.md, "Idempotency-Key").

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  attempts?: number;
  /** The first wait when the answer names no Retry-After, doubled at each attempt (default 250 ms). */
  baseDelayMs?: number;
  /** The longest wait before an attempt (default 30 s): an answer asking for longer is returned as it is. */
  maxDelayMs?: number;
}

type Fetch = (request: Request) => Promise<Response>;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Writes that get an Idempotency-Key of their own when the caller gave none. */
export function takesIdempotencyKey(request: Request): boolean {
  if (request.method !== 'POST' && request.method !== 'PATCH') return false;
  // The token endpoint and the other anonymous routes keep no keys (a new token is harmless anyway).
  return !new URL(request.url).pathname.startsWith('/oauth/');
}

/** Seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds from now; undefined if neither. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function retryableAnswer(response: Response, keyed: boolean): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  // The first attempt of this key is still running (it was sent before a connection broke): its
  // stored answer comes once it ends.
  if (response.status === 409 && keyed) {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    return typeof body === 'object' && body !== null && 'Code' in body
      ? body.Code === 'IdempotencyKeyInUse'
      : false;
  }
  return false;
}

/** Why the wait before an attempt ended: the call's own abort reason when it is an Error. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The call was aborted', 'AbortError');
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortError(signal));
      },
      { once: true },
    );
  });

/**
 * A fetch that gives every write one Idempotency-Key for all of its attempts (unless
 * `idempotencyKeys` is false) and sends a retryable call again after a network error, a 429 or a 503
 * (waiting as Retry-After says, else with exponential backoff and jitter), or a 409
 * IdempotencyKeyInUse.
 */
export function retryingFetch(
  fetch: Fetch,
  options: RetryOptions & { idempotencyKeys?: boolean; newKey?: () => string } = {},
): Fetch {
  const attempts = Math.max(1, options.attempts ?? 3);
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  return async (request) => {
    // The key is chosen once per call, before the first attempt: every attempt carries it.
    if (
      options.idempotencyKeys !== false &&
      takesIdempotencyKey(request) &&
      !request.headers.has('Idempotency-Key')
    )
      request.headers.set('Idempotency-Key', newKey());
    const keyed = request.headers.has('Idempotency-Key');
    const retryable = IDEMPOTENT_METHODS.has(request.method) || keyed;
    if (!retryable || attempts === 1) return fetch(request);

    for (let attempt = 1; ; attempt++) {
      const last = attempt === attempts;
      // Each attempt sends a copy: a body can be read once.
      const sent = last ? request : request.clone();
      const backoff = baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = await fetch(sent);
      } catch (error) {
        // A call its caller aborted is not retried; a failed connection is.
        if (last || request.signal.aborted) throw error;
        await sleep(Math.min(backoff, maxDelayMs), request.signal);
        continue;
      }
      if (last || !(await retryableAnswer(response, keyed))) return response;
      const wait = retryAfterMs(response.headers.get('Retry-After')) ?? backoff;
      if (wait > maxDelayMs) return response;
      // The answer is dropped: its body would otherwise hold the connection.
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
