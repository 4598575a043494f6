// A 413 answered while the client is still sending its body (a 26 MiB upload past
// ASSET_MAX_BYTES refused by its Content-Length, or counted past a limit as it streams) is
// followed by a lingering close (RFC 9112 §9.6): `Connection: close`, the answer written, the
// server's side of the connection ended, and what the client still sends read and dropped until
// it has sent it all or closes, within LINGER_MAX_BYTES and LINGER_MAX_MS. Closing at once with
// the client's bytes unread makes the kernel reset the connection: the client, still writing,
// gets EPIPE or a reset instead of the answer (Python's urllib always, Node's fetch and http at
// times; curl alone read it). Every 413 of every route passes here, whatever produced it:
// Fastify's body limits, the services' too-large DomainErrors, a handler's own; and every error
// a body parser answers before the body has all arrived (400 JsonTooDeep).
import { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** The most a refused client may still send, read and dropped, before its connection is cut. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
/** The longest a refused client's connection is kept open after the answer. */
export const LINGER_MAX_MS = 10_000;

/**
 * Node ends a `Connection: close` connection with socket.destroySoon() once the answer is written
 * (http's resOnFinish), and that destroys the socket as soon as the answer is flushed, unread bytes
 * or not: on this socket it ends the server's side instead and leaves the rest to the bounds.
 */
function lingerOn(socket: Socket, request: IncomingMessage, log: FastifyBaseLogger): void {
  let dropped = 0;
  let flushed = false;
  const close = () => socket.destroy();
  const closeIfDone = () => {
    if (flushed && request.complete) close();
  };
  // Read now, not only once the answer is written: a client may write its whole body first.
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= LINGER_MAX_BYTES) return;
    log.info({ dropped }, 'a refused body went on past LINGER_MAX_BYTES; connection closed');
    close();
  });
  request.once('end', closeIfDone);
  request.resume();
  socket.destroySoon = () => {
    const timer = setTimeout(() => {
      log.info({ dropped }, 'a refused body went on past LINGER_MAX_MS; connection closed');
      close();
    }, LINGER_MAX_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // The client's end of the connection (after it read the answer) ends it too: Node's own
    // listener closes the socket then, its side being ended already.
    socket.end(() => {
      flushed = true;
      closeIfDone();
    });
  };
}

export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    // Fastify closes after any error its body parser reports (a JSON body refused at its first
    // level too deep, json-body.ts, is answered while the rest may still be coming).
    const refusedBody =
      reply.statusCode === 413 ||
      (reply.statusCode >= 400 && reply.getHeader('connection') === 'close');
    if (refusedBody) {
      reply.header('Connection', 'close');
      // Only a real connection (not app.inject's) whose body has not all arrived.
      const socket = request.raw.socket;
      if (socket instanceof Socket && !request.raw.complete)
        lingerOn(socket, request.raw, request.log);
    }
    done(null, payload);
  });
}
