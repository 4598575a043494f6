// Blobs in an S3-compatible bucket (S3_URL): several instances on separate machines then share
// them. Uploads are spooled to a local file first (hash, size and content checks need the whole
// body before anything is stored), then streamed from that file in one PUT. The AWS SDK is
// loaded only when an S3 store is made: it costs a server without S3 about 15 MB of memory.
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type * as S3SdkModule from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.ts';
import {
  BlobMissingError,
  checkedKey,
  removeStaleSpoolFiles,
  sharedKey,
  type BlobKey,
  type BlobStore,
  type ByteRange,
} from './blob-store.ts';

// A tenant's blobs under blobs/tenants/<id>/<sha256>; those of before blobs were kept by tenant
// under blobs/<sha256> (blob-store.ts).
const KEY_PREFIX = 'blobs/';

type S3Sdk = typeof S3SdkModule;

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly connection: Promise<{ sdk: S3Sdk; client: S3Client }>;
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
    this.connection = import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client(config),
    }));
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

  async destroy(): Promise<void> {
    (await this.connection).client.destroy();
  }

  private keyOf(key: BlobKey): string {
    const { tenantId, sha256 } = checkedKey(key);
    return tenantId === null
      ? `${KEY_PREFIX}${sha256}`
      : `${KEY_PREFIX}tenants/${tenantId}/${sha256}`;
  }

  async put(key: BlobKey, spoolFile: string, size: number): Promise<void> {
    try {
      // Same key, same bytes: a blob already there is not sent again.
      if (await this.has(key)) return;
      const { sdk, client } = await this.connection;
      // One PUT streamed from the file (its length is known, so nothing is buffered); a single
      // PUT takes up to 5 GiB, the most ASSET_MAX_BYTES allows.
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          Body: createReadStream(spoolFile, { highWaterMark: 256 * 1024 }),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
    } finally {
      await rm(spoolFile, { force: true });
    }
  }

  async read(key: BlobKey, range: ByteRange): Promise<Readable> {
    const { sdk, client } = await this.connection;
    const get = (at: BlobKey) =>
      client
        .send(
          new sdk.GetObjectCommand({
            Bucket: this.bucket,
            Key: this.keyOf(at),
            Range: `bytes=${range.start}-${range.end}`,
          }),
        )
        .catch((error: Error) => {
          throw error.name === 'NoSuchKey' ? new BlobMissingError(key) : error;
        });
    const result = await get(key).catch((error: unknown) => {
      if (error instanceof BlobMissingError && key.tenantId !== null) return get(sharedKey(key));
      throw error;
    });
    return result.Body as Readable;
  }

  async delete(keys: BlobKey[]): Promise<void> {
    const { sdk, client } = await this.connection;
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const result = await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.keyOf(key) })), Quiet: true },
        }),
      );
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(`S3 refused to delete ${failed.length} blobs: ${failed[0]?.Code ?? ''}`);
      }
    }
  }

  async has(key: BlobKey): Promise<boolean> {
    const { sdk, client } = await this.connection;
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (error) {
      if (error instanceof sdk.NotFound || (error as { name?: string }).name === 'NotFound')
        return false;
      throw error;
    }
  }
}
