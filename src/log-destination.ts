// Where the server's log lines go: stdout, written in batches. A write per line on the request's
// path cost more than a tenth of a cached read (measured with `npm run bench`), so lines gather
// up to BATCH_BYTES and are written when that fills or FLUSH_INTERVAL_MS has passed; pino writes
// what is left when the process exits. The batch is written synchronously (pino's default): an
// asynchronous write hands each batch to libuv's thread pool and back, which cost more thread
// wake-ups than the write itself.
import { pino, type DestinationStream } from 'pino';

const BATCH_BYTES = 4096;
const FLUSH_INTERVAL_MS = 500;

export interface LogDestination {
  stream: DestinationStream;
  /** Writes what is gathered and stops the timer (on close). */
  close(): void;
}

export function stdoutLogDestination(): LogDestination {
  const stream = pino.destination({ dest: 1, sync: true, minLength: BATCH_BYTES });
  const timer = setInterval(() => stream.flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    stream,
    close() {
      clearInterval(timer);
      stream.flush();
    },
  };
}
