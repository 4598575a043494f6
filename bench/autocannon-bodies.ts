// autocannon keeps every response body as a string (`body += chunk`, a UTF-8 decode of each
// chunk) for onResponse and expectBody, which no scenario uses. On megabyte bodies that decode is
// the bottleneck: it capped the client near 50 MB/s on the bench host where node:http reads
// 400 MB/s, so the asset scenarios and their baselines measured the client, not the servers.
// Scenarios that serve bytes measure with the body dropped as it arrives (bytes are still
// counted); the others keep autocannon as it is.
import { createRequire } from 'node:module';

interface Queue {
  prototype: { addBody: (this: unknown, data: Buffer) => void };
}

const require = createRequire(import.meta.url);
const queue = require('autocannon/lib/pipelinedRequestsQueue.js') as Queue;
const keepBody = queue.prototype.addBody;
const dropBody = () => {};

/** Runs `fn` with autocannon dropping response bodies (true) or keeping them (false). */
export async function withBodies<T>(keep: boolean, fn: () => Promise<T>): Promise<T> {
  queue.prototype.addBody = keep ? keepBody : dropBody;
  try {
    return await fn();
  } finally {
    queue.prototype.addBody = keepBody;
  }
}
