// An upload on its way into the blob store: the body streamed to a spool file while its sha256
// and size are counted and its first bytes kept for the content check, never the whole body in
// memory. Past the limit, or when the client goes away mid-body, the spool file is removed.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../domain/domain-error.ts';
import { assetTooLarge, unreadableBody } from './storage-errors.ts';

/** Enough leading bytes for every signature the content check knows. */
export const HEAD_BYTES = 4100;

export interface Spooled {
  file: string;
  sha256: string;
  size: number;
  /** The first HEAD_BYTES bytes (fewer when the body is shorter). */
  head: Buffer;
}

/** Writes `body` to a new file in `directory`; throws 413 past `maxBytes`. */
export async function spool(body: Readable, directory: string, maxBytes: number): Promise<Spooled> {
  const file = path.join(directory, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(assetTooLarge(maxBytes));
      hash.update(chunk);
      if (headLength < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLength);
        headChunks.push(Buffer.from(part));
        headLength += part.length;
      }
      callback(null, chunk);
    },
  });
  // The body is piped rather than put in the pipeline: on an error (413) the request must stay
  // open for the answer; it is only unpiped, and the response closes the connection.
  const writing = pipeline(counter, createWriteStream(file, { flags: 'wx' }));
  const fail = (error?: unknown) =>
    counter.destroy(error instanceof DomainError ? error : unreadableBody());
  const closed = () => {
    if (!body.readableEnded) fail();
  };
  body.once('error', fail);
  body.once('close', closed);
  body.pipe(counter);
  try {
    await writing;
  } catch (error) {
    body.unpipe(counter);
    await rm(file, { force: true });
    throw error;
  } finally {
    body.off('error', fail);
    body.off('close', closed);
  }
  return { file, sha256: hash.digest('hex'), size, head: Buffer.concat(headChunks, headLength) };
}

/** Writes bytes already in memory (the JSON upload's decoded FileBody) the same way. */
export async function spoolBuffer(bytes: Buffer, directory: string): Promise<Spooled> {
  return spool(Readable.from([bytes]), directory, Number.MAX_SAFE_INTEGER);
}
