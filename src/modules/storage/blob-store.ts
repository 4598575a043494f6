// Where asset bytes live, behind one interface: files under DATA_DIR/blobs (the default) or an
// S3-compatible bucket (S3_URL). A blob is a tenant's, named by its content's sha256 (hex): two
// assets of one tenant with the same bytes share one blob, and each tenant has its own copy, so
// that an upload writes only its own tenant's rows (on Citus, one worker: docs/operations.md,
// "Fault isolation"). The assets table says which blobs are in use and the collector
// (blob-collector.ts) removes the others.
//
// Blobs stored before they were kept by tenant (migration 0310) stay where they were, under
// their hash alone, shared by every tenant that has them (the key with no tenant): reading a
// tenant's blob that is not under its tenant falls back to it. Nothing writes there any more; the
// collector removes them once no asset uses their hash.
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

/**
 * A blob's name: its tenant and its content's hash. `tenantId` null names a blob stored before
 * blobs were kept by tenant, under its hash alone (see the top of this file).
 */
export interface BlobKey {
  tenantId: number | null;
  sha256: string;
}

export interface BlobStore {
  readonly kind: 'disk' | 's3';
  /** A directory for upload spools; on disk it is on the store's file system (rename is atomic). */
  spoolDirectory(): Promise<string>;
  /** Stores a finished spool file under its key; the spool file is gone afterwards. */
  put(key: BlobKey, spoolFile: string, size: number): Promise<void>;
  /**
   * The bytes of one range of a blob (the whole blob is 0 to size − 1), from under its tenant or
   * else from under its hash alone; BlobMissingError when it is in neither place.
   */
  read(key: BlobKey, range: ByteRange): Promise<Readable>;
  /** Removes blobs (each from where its key says only); a blob already gone is not an error. */
  delete(keys: BlobKey[]): Promise<void>;
  /** Whether the blob is stored where its key says (tests and the collector's checks). */
  has(key: BlobKey): Promise<boolean>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A blob that is not stored: its asset was deleted and the collector has removed it. */
export class BlobMissingError extends Error {
  constructor(key: BlobKey) {
    super(`blob ${key.tenantId ?? 'shared'}/${key.sha256} is not stored`);
    this.name = 'BlobMissingError';
  }
}

/** The key, its hash checked, and its tenant checked to be a positive integer when it has one. */
export function checkedKey(key: BlobKey): BlobKey {
  if (!SHA256_HEX.test(key.sha256)) throw new Error(`not a sha256: ${key.sha256}`);
  if (key.tenantId !== null && !/^[1-9][0-9]{0,18}$/.test(String(key.tenantId)))
    throw new Error(`not a tenant id: ${String(key.tenantId)}`);
  return key;
}

/** The same blob stored before blobs were kept by tenant: its hash alone. */
export const sharedKey = (key: BlobKey): BlobKey => ({ tenantId: null, sha256: key.sha256 });

/**
 * Files under `root`: a tenant's under `tenants/<id>/`, then two directory levels from the hash
 * (`tenants/7/ab/cd/abcd…`); those of before blobs were kept by tenant at `ab/cd/abcd…`. A blob is written to
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

  pathOf(key: BlobKey): string {
    const { tenantId, sha256: hash } = checkedKey(key);
    const base = tenantId === null ? this.root : path.join(this.root, 'tenants', String(tenantId));
    return path.join(base, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(key: BlobKey, spoolFile: string, _size: number): Promise<void> {
    const target = this.pathOf(key);
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

  async read(key: BlobKey, range: ByteRange): Promise<Readable> {
    // Opened before the stream is made, so a missing blob fails before any header is sent. A
    // numeric descriptor keeps the stream on the callback file calls, cheaper than a
    // FileHandle's promise per read and per close (docs/design.md, "Serving assets").
    const openAt = (at: BlobKey) =>
      openFd(this.pathOf(at), 'r').catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new BlobMissingError(key) : error;
      });
    const fd = await openAt(key).catch((error: unknown) => {
      if (error instanceof BlobMissingError && key.tenantId !== null) return openAt(sharedKey(key));
      throw error;
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

  async delete(keys: BlobKey[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  async has(key: BlobKey): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
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
