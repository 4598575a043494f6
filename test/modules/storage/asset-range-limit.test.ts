// AssetUrl's cap on the ranges of one request (ASSET_MAX_RANGES, 16 by default): overlapping and
// adjacent ranges are combined first; a Range with more ranges left is ignored and the whole asset
// is served (200), as nginx's max_ranges does. Each range costs the server a read of the blob
// store (an S3 request on S3), so 1,600 one-byte ranges cost it as much as many whole files. The
// cap is the store's business in no way, so the disk store alone is used here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import type { TestTenant } from '../../support/test-api.ts';
import { expectStatus } from '../../support/expectations.ts';
import {
  createAsset,
  fetchContent,
  startStorageApi,
  type AssetJson,
  type StorageTestApi,
} from './storage-fixtures.ts';

const SIZE = 1024 * 1024;

/** `count` one-byte ranges, `step` bytes apart (a step of 1 makes them adjacent). */
const oneByteRanges = (count: number, step: number) =>
  `bytes=${Array.from({ length: count }, (_, i) => `${i * step}-${i * step}`).join(',')}`;

const partsOf = (body: Buffer) => body.toString('latin1').match(/Content-Range: bytes /g) ?? [];

describe('GET AssetUrl with many ranges (ASSET_MAX_RANGES, default 16)', () => {
  let api: StorageTestApi;
  let acme: TestTenant;
  let bytes: Buffer;
  let asset: AssetJson;

  beforeAll(async () => {
    api = await startStorageApi('disk');
    acme = await api.createTenant('acme');
    bytes = randomBytes(SIZE);
    asset = await createAsset(api, acme, bytes, 'application/octet-stream', 'data.bin');
  });
  afterAll(() => api.close());

  it('answers up to 16 ranges as multipart/byteranges', async () => {
    const response = await fetchContent(api, asset.AssetUrl, { range: oneByteRanges(16, 1000) });
    expectStatus(response, 206);
    expect(response.headers['content-type']).toMatch(/^multipart\/byteranges; boundary=/);
    expect(partsOf(response.rawPayload)).toHaveLength(16);
  });

  it('serves the whole asset with 200, ignoring Range, when more than 16 ranges remain', async () => {
    for (const range of [oneByteRanges(17, 1000), oneByteRanges(1600, 2)]) {
      const response = await fetchContent(api, asset.AssetUrl, { range });
      expectStatus(response, 200);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-length']).toBe(String(SIZE));
      expect(response.headers['content-range']).toBeUndefined();
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('answers HEAD past the cap with the whole asset’s headers', async () => {
    const range = oneByteRanges(1600, 2);
    const response = await fetchContent(api, asset.AssetUrl, { range }, 'HEAD');
    expectStatus(response, 200);
    expect(response.headers['content-length']).toBe(String(SIZE));
    expect(response.rawPayload.length).toBe(0);
  });

  it('combines adjacent and overlapping ranges before counting them', async () => {
    const adjacent = await fetchContent(api, asset.AssetUrl, { range: oneByteRanges(1600, 1) });
    expectStatus(adjacent, 206);
    expect(adjacent.headers['content-range']).toBe(`bytes 0-1599/${SIZE}`);
    expect(adjacent.rawPayload.equals(bytes.subarray(0, 1600))).toBe(true);
    // 40 ranges that overlap in pairs: 20 after combining, still past the cap.
    const pairs = Array.from(
      { length: 20 },
      (_, i) => `${i * 100}-${i * 100 + 9},${i * 100 + 5}-${i * 100 + 19}`,
    );
    const overlapping = await fetchContent(api, asset.AssetUrl, {
      range: `bytes=${pairs.join(',')}`,
    });
    expectStatus(overlapping, 200);
    // 40 ranges that overlap in pairs, 16 after combining: within the cap.
    const within = await fetchContent(api, asset.AssetUrl, {
      range: `bytes=${pairs.slice(0, 16).join(',')}`,
    });
    expectStatus(within, 206);
    expect(partsOf(within.rawPayload)).toHaveLength(16);
  });

  it('still answers 416 when no range is in the asset, however many there are', async () => {
    const beyond = Array.from({ length: 100 }, (_, i) => `${SIZE + i * 2}-${SIZE + i * 2}`);
    const response = await fetchContent(api, asset.AssetUrl, {
      range: `bytes=${beyond.join(',')}`,
    });
    expectStatus(response, 416);
  });
});

describe('GET AssetUrl with ASSET_MAX_RANGES=1', () => {
  let api: StorageTestApi;
  let asset: AssetJson;
  let bytes: Buffer;

  beforeAll(async () => {
    api = await startStorageApi('disk', { ASSET_MAX_RANGES: '1' });
    const acme = await api.createTenant('acme');
    bytes = randomBytes(4096);
    asset = await createAsset(api, acme, bytes, 'application/octet-stream', 'data.bin');
  });
  afterAll(() => api.close());

  it('answers one range with 206 and two with the whole asset', async () => {
    const one = await fetchContent(api, asset.AssetUrl, { range: 'bytes=10-19' });
    expectStatus(one, 206);
    expect(one.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
    const two = await fetchContent(api, asset.AssetUrl, { range: 'bytes=10-19,30-39' });
    expectStatus(two, 200);
    expect(two.rawPayload.equals(bytes)).toBe(true);
  });
});

describe('ASSET_MAX_RANGES (configuration)', () => {
  it('is 16 by default and takes 1..1000', () => {
    expect(loadConfig({}).assetMaxRanges).toBe(16);
    expect(loadConfig({ ASSET_MAX_RANGES: '1000' }).assetMaxRanges).toBe(1000);
    for (const value of ['0', '1001', '-1', 'ten', '2.5']) {
      expect(() => loadConfig({ ASSET_MAX_RANGES: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ ASSET_MAX_RANGES: value }), value).toThrow(/ASSET_MAX_RANGES/);
    }
  });
});
