// Blobs in an S3-compatible bucket (S3_URL): several instances on separate machines then share
// them. Uploads are spooled to a local file first (hash, size and content checks need the whole
// body before anything is stored), then streamed from that file in one PUT.
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.ts';
import {
  BlobMissingError,
  removeStaleSpoolFiles,
  SHA256_HEX,
  type BlobStore,
  type ByteRange,
} from './blob-store.ts';

const KEY_PREFIX = 'blobs/';

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly spoolRoot: string;
  private spoolReady: Promise<string> | undefined;

  constructor(settings: S3Settings, spoolRoot: string) {
    const config: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where the service asks for them: S3-compatible servers differ.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client(config);
    this.bucket = settings.bucket;
    this.spoolRoot = spoolRoot;
  }

  spoolDirectory(): Promise<string> {
    this.spoolReady ??= (async () => {
      await mkdir(this.spoolRoot, { recursive: true });
      await removeStaleSpoolFiles(this.spoolRoot);
      return this.spoolRoot;
    })().catch((error: unknown) => {
      this.spoolReady = undefined;
      throw error;
    });
    return this.spoolReady;
  }

  private keyOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return `${KEY_PREFIX}${sha256}`;
  }

  async put(sha256: string, spoolFile: string, size: number): Promise<void> {
    try {
      // Same hash, same bytes: a blob already there is not sent again.
      if (await this.has(sha256)) return;
      // One PUT streamed from the file (its length is known, so nothing is buffered); a single
      // PUT takes up to 5 GiB, the most ASSET_MAX_BYTES allows.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          Body: createReadStream(spoolFile, { highWaterMark: 256 * 1024 }),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
    } finally {
      await rm(spoolFile, { force: true });
    }
  }

  async read(sha256: string, range: ByteRange): Promise<Readable> {
    const result = await this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          Range: `bytes=${range.start}-${range.end}`,
        }),
      )
      .catch((error: Error) => {
        throw error.name === 'NoSuchKey' ? new BlobMissingError(sha256) : error;
      });
    return result.Body as Readable;
  }

  async delete(sha256s: string[]): Promise<void> {
    for (let i = 0; i < sha256s.length; i += 1000) {
      const batch = sha256s.slice(i, i + 1000);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((sha) => ({ Key: this.keyOf(sha) })), Quiet: true },
        }),
      );
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(`S3 refused to delete ${failed.length} blobs: ${failed[0]?.Code ?? ''}`);
      }
    }
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }),
      );
      return true;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound')
        return false;
      throw error;
    }
  }
}
