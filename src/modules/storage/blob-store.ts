// Where asset bytes live, behind one interface: files under DATA_DIR/blobs (the default) or an
// S3-compatible bucket (S3_URL). Blobs are content-addressed by their sha256 (hex), so two
// assets with the same bytes share one blob; the assets table says which blobs are in use and
// the collector (blob-collector.ts) removes the others.
import { createReadStream, open as openWithCallback } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const openFd = promisify(openWithCallback);

/** An inclusive byte range, as HTTP Range counts. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'disk' | 's3';
  /** A directory for upload spools; on disk it is on the store's file system (rename is atomic). */
  spoolDirectory(): Promise<string>;
  /** Stores a finished spool file under its hash; the spool file is gone afterwards. */
  put(sha256: string, spoolFile: string, size: number): Promise<void>;
  /**
   * The bytes of one range of a blob (the whole blob is 0 to size − 1); BlobMissingError when
   * the blob is not stored.
   */
  read(sha256: string, range: ByteRange): Promise<Readable>;
  /** Removes blobs; a blob already gone is not an error. */
  delete(sha256s: string[]): Promise<void>;
  /** Whether the blob is stored (tests and the collector's checks). */
  has(sha256: string): Promise<boolean>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A blob that is not stored: its asset was deleted and the collector has removed it. */
export class BlobMissingError extends Error {
  constructor(sha256: string) {
    super(`blob ${sha256} is not stored`);
    this.name = 'BlobMissingError';
  }
}

function checkedHash(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return sha256;
}

/**
 * Files under `root`, two directory levels from the hash (`ab/cd/abcd…`). A blob is written to
 * a spool file in `root/tmp`, flushed to disk and renamed into place, so a crash leaves either
 * the whole file or none (and at most a stray spool file, which the next start clears).
 */
export class DiskBlobStore implements BlobStore {
  readonly kind = 'disk' as const;
  private readonly root: string;
  private spoolReady: Promise<string> | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * Spool files left by a crash are removed on the first use once a day old (other instances on
   * the same DATA_DIR may be writing the younger ones).
   */
  spoolDirectory(): Promise<string> {
    this.spoolReady ??= (async () => {
      const dir = path.join(this.root, 'tmp');
      await mkdir(dir, { recursive: true });
      await removeStaleSpoolFiles(dir);
      return dir;
    })().catch((error: unknown) => {
      this.spoolReady = undefined;
      throw error;
    });
    return this.spoolReady;
  }

  pathOf(sha256: string): string {
    const hash = checkedHash(sha256);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(sha256: string, spoolFile: string, _size: number): Promise<void> {
    const target = this.pathOf(sha256);
    await mkdir(path.dirname(target), { recursive: true });
    // Flushed before the rename: after a crash the name never points at half a file.
    const handle = await open(spoolFile, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(spoolFile, target);
  }

  async read(sha256: string, range: ByteRange): Promise<Readable> {
    // Opened before the stream is made, so a missing blob fails before any header is sent. A
    // numeric descriptor keeps the stream on the callback file calls, cheaper than a
    // FileHandle's promise per read and per close (docs/design.md, "Serving assets").
    const fd = await openFd(this.pathOf(sha256), 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new BlobMissingError(sha256) : error;
    });
    // An end makes the stream read exactly the range: no read past it and no buffer larger
    // than what is left, which it would copy into a smaller one.
    return createReadStream('', {
      fd,
      start: range.start,
      end: range.end,
      highWaterMark: 256 * 1024,
    });
  }

  async delete(sha256s: string[]): Promise<void> {
    await Promise.all(sha256s.map((sha) => rm(this.pathOf(sha), { force: true })));
  }

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch {
      return false;
    }
  }
}

const STALE_SPOOL_MS = 24 * 3600 * 1000;

export async function removeStaleSpoolFiles(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_SPOOL_MS) await rm(file, { force: true });
  }
}
