// Seeds the AssetUrl scenarios: writes a 100 KB PNG (random pixels, so it does not compress) and
// a 10 MiB MP4 (an ftyp box, then random bytes) and uploads both through the storage service, as
// POST /management/storage/asset/raw does. Prints the AssetUrl paths and, for the bare baseline,
// the files holding the same bytes (the blobs themselves on the disk store).
// Usage: node bench/storage-seed.ts <tenant>   (same DATA_DIR / DATABASE_URL as the server)
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { createServices } from '../src/module-wiring.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { DiskBlobStore } from '../src/modules/storage/blob-store.ts';
import type { AssetFile, AssetSeed } from './storage-scenarios.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/storage-seed.ts <tenant>');

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of random pixels, side × side: about 3 × side² bytes. */
function noisePng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.concat(
    Array.from({ length: side }, () => Buffer.concat([Buffer.of(0), randomBytes(side * 3)])),
  );
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 10 MiB starting with an ISO BMFF ftyp box (isom), as an MP4 file does. */
function mp4Bytes(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set(Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex'));
  return bytes;
}

const config = loadConfig();
const database = await openDatabase(config);
try {
  const services = createServices(config, database);
  const tenant = await services.tenants.findByName(tenantName);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  const dir = path.join(config.dataDir, 'bench-assets');
  await mkdir(dir, { recursive: true });
  const { store, assets } = services.storage;
  const upload = async (fileName: string, mimeType: string, bytes: Buffer): Promise<AssetFile> => {
    const source = path.join(dir, fileName);
    await writeFile(source, bytes);
    // Only the AssetUrl's path is kept: the bench addresses the tenant by its Host header.
    const asset = await assets.createFromStream(
      tenant.id,
      'http://bench.invalid',
      { fileName, mimeType },
      createReadStream(source),
    );
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return {
      urlPath: new URL(asset.AssetUrl).pathname,
      file: store instanceof DiskBlobStore ? store.pathOf({ tenantId: tenant.id, sha256 }) : source,
      size: bytes.length,
      sha256,
      mimeType,
      fileName,
    };
  };
  const seed: AssetSeed = {
    image: await upload('bench-image.png', 'image/png', noisePng(184)),
    video: await upload('bench-video.mp4', 'video/mp4', mp4Bytes(10 * 1024 * 1024)),
  };
  console.log(JSON.stringify(seed));
} finally {
  await database.close();
}
