// Failures that mean "the database cannot be reached right now", as opposed to a query it
// refused. A client can retry these; src/http/ answers them with 503 and Retry-After.

// SQLSTATE class 08 (connection exception), and the server shutting down, crashing or not yet
// accepting connections (57P01–57P03); 53300: every connection slot is taken.
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
// Socket-level failures of the driver (no SQLSTATE): refused, reset, unreachable, timed out.
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres reports a lost or never-made connection only in its message.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    chain.push(current);
    // AggregateError (several addresses refused) carries its reasons in `errors`.
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested)) chain.push(...(nested as unknown[]));
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** True when the error says the database is unreachable, not that it refused the query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((candidate) => {
    if (!candidate || typeof candidate !== 'object') return false;
    const { code, message } = candidate as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))
    )
      return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
  });
}
