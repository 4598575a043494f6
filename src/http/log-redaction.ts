// Credentials in URLs never reach the log: the value of every credential-bearing query parameter
// of a logged URL becomes [REDACTED] (the console's `?code=…&state=…` at its callback, an
// `access_token` a client put in a query string, keys and signatures). Applied by the logger to
// every `url` it writes and to the `req` it serializes, so the request log line and any other
// line naming a URL are covered. A URL without a query string costs one indexOf.

export const REDACTED = '[REDACTED]';

/** Query parameter names (lower case) whose values are credentials or one-time secrets. */
export const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set([
  // OAuth 2.0 and OpenID Connect (RFC 6749, 7636, 7523; the console's sign-in)
  'code',
  'state',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'client_assertion',
  'assertion',
  'code_verifier',
  'csrf_token',
  'password',
  'new_password',
  'new_password_repeat',
  'password_change_ticket',
  // API keys: the integration gateway's subscription key and the usual spellings
  'subscription-key',
  'subscription_key',
  'x-subscription-key',
  'api_key',
  'api-key',
  'apikey',
  'key',
  'secret',
  'authorization',
  'jwt',
  // Signed URLs (S3 presigned, shared access signatures)
  'signature',
  'sig',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);

/** The longest name above, three times over (each character percent-encoded). */
const LONGEST_NAME = 3 * Math.max(...[...CREDENTIAL_PARAMETERS].map((name) => name.length));

function isCredential(rawName: string): boolean {
  let name = rawName.toLowerCase();
  if (name.includes('%')) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // Not valid percent-encoding: compared as written.
    }
  }
  return CREDENTIAL_PARAMETERS.has(name);
}

/**
 * The URL (path and query) with the values of credential parameters replaced by [REDACTED]
 * (`?code` with no value becomes `?code=[REDACTED]` too). The query is scanned in place: a query
 * without credentials allocates only its parameter names, and the URL comes back as it was.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  let redacted: string | undefined;
  let copied = 0;
  const end = url.length;
  for (let start = query + 1; start <= end;) {
    let next = url.indexOf('&', start);
    if (next < 0) next = end;
    let equals = url.indexOf('=', start);
    if (equals < 0 || equals > next) equals = next;
    const length = equals - start;
    if (length > 0 && length <= LONGEST_NAME && isCredential(url.slice(start, equals))) {
      redacted = `${redacted ?? ''}${url.slice(copied, equals)}=${REDACTED}`;
      copied = next;
    }
    start = next + 1;
  }
  return redacted === undefined ? url : redacted + url.slice(copied);
}

/** pino serializer of `url` fields: a string URL redacted, anything else as it is. */
export function urlSerializer(value: unknown): unknown {
  return typeof value === 'string' ? redactUrl(value) : value;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** pino serializer of `req` fields: Fastify's (method, url, host, address), the URL redacted. */
export function requestSerializer(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
