// Shared pieces of the storage tests: an API on a fresh blob store of either kind (a directory,
// or a real S3-protocol server, s3rver, on loopback), uploads, and files of known types.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { startS3rver, type S3rver } from '../../support/s3-server.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { expectStatus } from '../../support/expectations.ts';

export type StoreKind = 'disk' | 's3';
export const STORE_KINDS: StoreKind[] = ['disk', 's3'];

export interface StorageTestApi extends TestApi {
  kind: StoreKind;
  /** The DATA_DIR of the disk store (also where the S3 store's server keeps its files). */
  dataDir: string;
  /** Names of the files under the blob store's spool directory. */
  spoolFiles(): Promise<string[]>;
  /** Whether the blob store holds a blob of the tenant's. */
  hasBlob(tenant: TestTenant, sha256: string): Promise<boolean>;
  /** The tenant's id. */
  tenantIdOf(tenant: TestTenant): Promise<number>;
}

export interface AssetJson {
  Id: number;
  FileName: string;
  MimeType: string;
  Size: number;
  AssetUrl: string;
}

/** Starts the API with a blob store of `kind` on fresh storage. */
export async function startStorageApi(
  kind: StoreKind,
  env: Record<string, string> = {},
): Promise<StorageTestApi> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-storage-'));
  let s3: S3rver | undefined;
  const settings: Record<string, string> = { DATA_DIR: dataDir, ...env };
  if (kind === 's3') {
    s3 = await startS3rver(path.join(dataDir, 's3rver'));
    settings.S3_URL = s3.url;
  }
  const api = await startTestApi(settings);
  const store = api.services.storage.store;
  const tenantIdOf = async (tenant: TestTenant) =>
    (await api.services.tenants.findByName(tenant.name))!.id;
  const spoolDir = await store.spoolDirectory();
  const close = api.close.bind(api);
  return Object.assign(api, {
    kind,
    dataDir,
    spoolFiles: async () => (await readdir(spoolDir)).filter((name) => name.endsWith('.part')),
    hasBlob: async (tenant: TestTenant, sha256: string) =>
      store.has({ tenantId: await tenantIdOf(tenant), sha256 }),
    tenantIdOf,
    close: async () => {
      await close();
      await s3?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

/** A valid PNG of `width`×`height` gray pixels. */
export function png(width = 2, height = 2): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // grayscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The leading bytes of a JPEG (SOI + JFIF APP0), padded with `size` bytes. */
export function jpeg(size = 64): Buffer {
  const head = Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00,
  ]);
  return Buffer.concat([head, Buffer.alloc(size, 7), Buffer.from([0xff, 0xd9])]);
}

/** An ISO base media (MP4) file's leading bytes and `size` bytes of pattern after them. */
export function mp4(size = 1024): Buffer {
  const ftyp = Buffer.from('00000018667479706d703432000000006d70343269736f6d', 'hex');
  const rest = Buffer.alloc(size);
  for (let i = 0; i < size; i++) rest[i] = i % 251;
  return Buffer.concat([ftyp, rest]);
}

export const pdf = (text = 'hello') => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** POST /management/storage/asset with a base64 FileBody. */
export const uploadJson = (
  api: TestApi,
  tenant: TestTenant,
  bytes: Buffer,
  mimeType: string,
  fileName = 'file.bin',
) =>
  api.call({
    method: 'POST',
    url: '/management/storage/asset',
    tenant,
    body: { FileName: fileName, MimeType: mimeType, FileBody: bytes.toString('base64') },
  });

/** POST /management/storage/asset/raw with the bytes as the body. */
export const uploadRaw = (
  api: TestApi,
  tenant: TestTenant,
  bytes: Buffer,
  mimeType: string | undefined,
  fileName = 'file.bin',
  token?: string | null,
) =>
  api.app.inject({
    method: 'POST',
    url: `/management/storage/asset/raw?fileName=${encodeURIComponent(fileName)}`,
    headers: {
      host: tenant.host,
      accept: 'application/vnd.xomni.api-v4-0',
      ...(token === null ? {} : { authorization: `Bearer ${token ?? tenant.token}` }),
      ...(mimeType ? { 'content-type': mimeType } : {}),
    },
    payload: bytes,
  });

/** Uploads and returns the asset (expects 201). */
export async function createAsset(
  api: TestApi,
  tenant: TestTenant,
  bytes: Buffer = png(),
  mimeType = 'image/png',
  fileName = 'picture.png',
): Promise<AssetJson> {
  const response = await uploadRaw(api, tenant, bytes, mimeType, fileName);
  expectStatus(response, 201);
  return response.json<AssetJson>();
}

/** GET of an AssetUrl (no token), as a browser would ask. */
export const fetchContent = (
  api: TestApi,
  assetUrl: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
) => {
  const url = new URL(assetUrl);
  return api.app.inject({
    method,
    url: url.pathname,
    headers: {
      host: url.host.replace(/:\d+$/, ''),
      accept: 'image/avif,image/webp,image/*',
      ...headers,
    },
  });
};

export const rawBody = (response: LightMyRequestResponse) => response.rawPayload;
