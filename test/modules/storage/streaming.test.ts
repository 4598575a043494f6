// Streamed uploads over a real connection (contract §5.4): a 20 MiB body goes to the blob store
// without the server holding it in memory, and a connection dropped mid-body leaves no file and
// no row — on both blob stores.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { expectStatus } from '../../support/expectations.ts';
import {
  fetchContent,
  sha256Of,
  startStorageApi,
  STORE_KINDS,
  type AssetJson,
  type StorageTestApi,
} from './storage-fixtures.ts';

const MIB = 1024 * 1024;

// A full garbage collection on demand, so that what is measured is memory still in use.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/** Live memory after a full collection: the JS heap plus the buffers outside it. */
function liveMemory(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Waits until `condition` holds (checked every 20 ms), failing after 20 s. */
async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const kind of STORE_KINDS) {
  describe(`POST /management/storage/asset/raw over HTTP on the ${kind} store`, () => {
    let api: StorageTestApi;
    let acme: TestTenant;
    let port: number;

    beforeAll(async () => {
      api = await startStorageApi(kind, { ASSET_MAX_BYTES: String(32 * MIB) });
      acme = await api.createTenant('acme');
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      port = (api.app.server.address() as AddressInfo).port;
    });
    afterAll(() => api.close());

    const open = (
      length: number,
      onResponse: (status: number, body: string) => void,
    ): ClientRequest => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/management/storage/asset/raw?fileName=big.bin',
        headers: {
          host: acme.host,
          authorization: `Bearer ${acme.token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(length),
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => onResponse(res.statusCode ?? 0, Buffer.concat(chunks).toString()));
      });
      req.on('error', () => {});
      return req;
    };

    const assetCount = async () =>
      (await api.call({ url: '/management/storage/assets?take=1', tenant: acme })).json<{
        TotalCount: number;
      }>().TotalCount;

    it('streams a 20 MiB upload to the store with bounded memory growth', async () => {
      const size = 20 * MIB;
      const chunk = Buffer.alloc(64 * 1024);
      for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 256;
      // Measured every 4 MiB sent (a full collection is slow: sampling on a timer starves the upload).
      const baseline = liveMemory();
      let peak = baseline;
      let samples = 0;
      const sample = () => {
        peak = Math.max(peak, liveMemory());
        samples++;
      };
      const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = open(size, (status, body) => resolve({ status, body }));
        req.on('error', reject);
        let sent = 0;
        const write = () => {
          while (sent < size) {
            sent += chunk.length;
            if (sent % (4 * MIB) === 0) sample();
            if (!req.write(chunk)) return void req.once('drain', write);
          }
          req.end();
        };
        write();
      });
      expect(result.status, result.body).toBe(201);
      const asset = JSON.parse(result.body) as AssetJson;
      expect(asset.Size).toBe(size);
      // Holding the body would keep at least 20 MiB alive; streaming keeps a few buffers.
      expect(samples).toBe(5);
      expect(peak - baseline).toBeLessThan(8 * MIB);
      const expected = sha256Of(
        Buffer.concat(Array.from({ length: size / chunk.length }, () => chunk)),
      );
      expect(await api.hasBlob(acme, expected)).toBe(true);
      const tail = await fetchContent(api, asset.AssetUrl, { range: `bytes=${size - 10}-` });
      expectStatus(tail, 206);
      expect(tail.rawPayload.equals(chunk.subarray(-10))).toBe(true);
      expect(await api.spoolFiles()).toEqual([]);
    });

    it('leaves no file and no row when the connection drops mid-body', async () => {
      const before = await assetCount();
      const req = open(4 * MIB, () => {});
      req.write(Buffer.alloc(512 * 1024, 1));
      // The server has started spooling the body …
      await eventually(async () => (await api.spoolFiles()).length > 0, 'a spool file');
      // … when the client goes away.
      req.destroy();
      await eventually(async () => (await api.spoolFiles()).length === 0, 'the spool file removed');
      expect(await assetCount()).toBe(before);
      expect(await api.hasBlob(acme, sha256Of(Buffer.alloc(512 * 1024, 1)))).toBe(false);
      const [blobs] = await api.database.handle.query<{ n: number }>(
        'select count(*)::int as n from storage_blobs where size = $1',
        [4 * MIB],
      );
      expect(blobs?.n).toBe(0);
    });

    it('answers 413 at once for a Content-Length past the limit, storing nothing', async () => {
      const before = await assetCount();
      const result = await new Promise<{ status: number; body: string }>((resolve) => {
        const req = open(33 * MIB, (status, body) => resolve({ status, body }));
        req.write(Buffer.alloc(1024));
      });
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toMatchObject({ Code: 'AssetTooLarge' });
      expect(await assetCount()).toBe(before);
      expect(await api.spoolFiles()).toEqual([]);
    });
  });
}
