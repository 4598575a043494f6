// Requests Node's HTTP parser refuses before Fastify sees them (a raw non-ASCII byte in the
// request target, Content-Length with Transfer-Encoding, bare LF line ends, an oversized header
// section) and request timeouts: answered with the contract's error body, written straight to
// the socket, then the connection is closed. Given as the server's clientErrorHandler, in place
// of Fastify's, which answers {"error","message","statusCode"}.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { serializeErrorBody } from './error-body.ts';
import { securityHeaders } from './security-headers.ts';
import { LATEST_VERSION } from './versioning.ts';

interface ClientError extends Error {
  code?: string;
  /** llhttp's text for a parse error ("Invalid header value char"). */
  reason?: string;
}

interface Refusal {
  status: number;
  statusText: string;
  code: string;
  description: string;
}

const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    statusText: 'Request Header Fields Too Large',
    code: 'HeadersTooLarge',
    description: 'The request line and headers are larger than this server accepts.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    statusText: 'Payload Too Large',
    code: 'PayloadTooLarge',
    description: 'The chunk extensions of the request body are larger than this server accepts.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    statusText: 'Request Timeout',
    code: 'RequestTimeout',
    description: 'The request did not arrive in time; send it again.',
  },
};

/** What a client can do about some of the parser's refusals. */
const HINTS: Record<string, string> = {
  HPE_INVALID_URL: ' Bytes other than visible ASCII in the URL must be percent-encoded.',
  HPE_INVALID_TRANSFER_ENCODING: ' Send Content-Length or Transfer-Encoding, not both.',
  HPE_INVALID_CONTENT_LENGTH: ' Send Content-Length or Transfer-Encoding, not both.',
  HPE_CR_EXPECTED: ' Lines end with CR LF.',
  HPE_LF_EXPECTED: ' Lines end with CR LF.',
  HPE_INVALID_VERSION: ' Lines end with CR LF.',
};

/** 400 MalformedRequest, naming what the parser found (llhttp's fixed text, never the bytes). */
function malformed(error: ClientError): Refusal {
  // The reason is one of llhttp's constant strings; kept to printable ASCII all the same.
  const reason = (error.reason ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 120);
  return {
    status: 400,
    statusText: 'Bad Request',
    code: 'MalformedRequest',
    description:
      `The request is not valid HTTP/1.1${reason ? ` (${reason})` : ''}.` +
      (HINTS[error.code ?? ''] ?? ''),
  };
}

/** Headers every answer carries: X-Api-Version and the security headers (security-headers.ts). */
function fixedHeaders(https: boolean): [string, string][] {
  return [
    ['x-api-version', LATEST_VERSION],
    ...securityHeaders({ publicScheme: https ? 'https' : 'http' }),
  ];
}

/**
 * How long a refused connection is kept open after its answer, reading and dropping what the
 * client still sends: closing at once with unread bytes resets the connection, and a reset can
 * erase the answer before the client reads it (RFC 9112 §9.6).
 */
const LINGER_MS = 2_000;

/** Sockets already answered: the parser reports its error again for every later read. */
const answered = new WeakSet<Socket>();

interface InFlight {
  _httpMessage?: { headersSent?: boolean } | null;
}

export function clientErrorHandler(options: {
  log: () => FastifyBaseLogger;
  https: boolean;
}): (error: ClientError, socket: Socket) => void {
  const headers = fixedHeaders(options.https)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return (error, socket) => {
    // A reset connection has nobody to answer; a socket answered before has been logged.
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const refusal = (error.code && REFUSALS[error.code]) || malformed(error);
    const requestId = randomUUID();
    // Only the code and llhttp's fixed text: the error's rawPacket holds the request's bytes
    // (its URL, its Authorization header).
    options.log().info(
      {
        requestId,
        status: refusal.status,
        code: error.code,
        reason: error.reason,
        remoteAddress: socket.remoteAddress,
      },
      refusal.description,
    );
    // An answer already under way on this connection (pipelining) cannot be followed by ours.
    const inFlight = (socket as unknown as InFlight)._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const body = serializeErrorBody(requestId, refusal.code, refusal.description);
    const answer =
      `HTTP/1.1 ${refusal.status} ${refusal.statusText}\r\n` +
      `Date: ${new Date().toUTCString()}\r\n` +
      `Connection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      `${headers}\r\n\r\n${body}`;
    if (inFlight) {
      // An earlier request of the connection is still being answered: close at once, as Node
      // does, so that its answer cannot follow ours.
      socket.write(answer);
      socket.destroy();
      return;
    }
    socket.end(answer);
    // Closed when the client closes its side (as it does after a `Connection: close` answer), at
    // the latest after LINGER_MS.
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * An `Expect` the server cannot meet (anything but 100-continue): 417 in the contract's error
 * body (Node's own answer has none). The server's `checkExpectation` listener.
 */
export function expectationFailed(options: {
  log: () => FastifyBaseLogger;
  https: boolean;
}): (request: IncomingMessage, response: ServerResponse) => void {
  const headers = fixedHeaders(options.https);
  return (request, response) => {
    const requestId = randomUUID();
    const description =
      'This server meets no expectation but 100-continue; send the request without Expect.';
    options.log().info({ requestId, status: 417, url: request.url }, description);
    const body = serializeErrorBody(requestId, 'ExpectationFailed', description);
    response.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      Connection: 'close',
      ...Object.fromEntries(headers),
    });
    response.end(body);
  };
}
