// The AssetUrl baseline: a bare node:http server answering GET /image and GET /video with
// fs.createReadStream piped into the response, from the files storage-seed.ts made (the same
// bytes the API serves), with the same headers and a single `bytes=a-b` Range (206,
// Content-Range). Sizes are taken once at start, so no request pays a lookup: the ceiling for
// serving those bytes from this machine.
// Usage: BENCH_ASSET_SEED='<storage-seed.ts output>' PORT=… node bench/asset-baseline.ts
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AssetFile, AssetSeed } from './storage-scenarios.ts';

const seed = JSON.parse(process.env.BENCH_ASSET_SEED ?? 'null') as AssetSeed | null;
if (!seed) throw new Error('BENCH_ASSET_SEED (storage-seed.ts output) is required');
const files: Record<string, AssetFile> = { '/image': seed.image, '/video': seed.video };
const RANGE = /^bytes=(\d+)-(\d+)$/;

const server = createServer((request, response) => {
  const asset = files[request.url ?? ''];
  if (!asset) {
    response.writeHead(404).end();
    return;
  }
  const headers = {
    ETag: `"${asset.sha256}"`,
    'Cache-Control': 'public, max-age=86400',
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'Content-Disposition': `inline; filename="${asset.fileName}"`,
    'Content-Type': asset.mimeType,
  };
  const match = RANGE.exec(request.headers.range ?? '');
  let stream;
  if (match) {
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), asset.size - 1);
    if (start > end) {
      response.writeHead(416, { 'Content-Range': `bytes */${asset.size}` }).end();
      return;
    }
    response.writeHead(206, {
      ...headers,
      'Content-Range': `bytes ${start}-${end}/${asset.size}`,
      'Content-Length': end - start + 1,
    });
    stream = createReadStream(asset.file, { start, end });
  } else {
    response.writeHead(200, { ...headers, 'Content-Length': asset.size });
    stream = createReadStream(asset.file);
  }
  stream.on('error', () => response.destroy());
  stream.pipe(response);
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
