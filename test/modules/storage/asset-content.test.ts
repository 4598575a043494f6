// AssetUrl (contract §5.4): the bytes without a token under an unguessable key, with ETag and
// 304, Cache-Control, Range (206, several ranges, open-ended, 416) — on both blob stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';
import {
  createAsset,
  fetchContent,
  mp4,
  png,
  sha256Of,
  startStorageApi,
  STORE_KINDS,
  type AssetJson,
  type StorageTestApi,
} from './storage-fixtures.ts';

/** Splits a multipart/byteranges body into its parts' Content-Range and bytes. */
function byteRangeParts(body: Buffer, contentType: string): { range: string; bytes: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!;
  const text = body.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return parts.map((part) => {
    const [head, ...rest] = part.split('\r\n\r\n');
    const range = /Content-Range: (.+)/.exec(head!)![1]!.trim();
    const bytes = Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1');
    return { range, bytes };
  });
}

for (const kind of STORE_KINDS) {
  describe(`GET AssetUrl on the ${kind} store`, () => {
    let api: StorageTestApi;
    let acme: TestTenant;
    let other: TestTenant;
    let video: Buffer;
    let videoAsset: AssetJson;
    let image: Buffer;
    let imageAsset: AssetJson;

    beforeAll(async () => {
      api = await startStorageApi(kind);
      acme = await api.createTenant('acme');
      other = await api.createTenant('other');
      video = mp4(300_000);
      videoAsset = await createAsset(api, acme, video, 'video/mp4', 'clip "1".mp4');
      image = png(16, 16);
      imageAsset = await createAsset(api, acme, image, 'image/png', 'logo.png');
    });
    afterAll(() => api.close());

    it('serves the bytes without a token, to a browser Accept header, with caching headers', async () => {
      const response = await fetchContent(api, imageAsset.AssetUrl);
      expectStatus(response, 200);
      expect(response.rawPayload.equals(image)).toBe(true);
      expect(response.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(image.length),
        etag: `"${sha256Of(image)}"`,
        'cache-control': 'public, max-age=86400',
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
      });
      expect(response.headers['content-security-policy']).toContain('sandbox');
      expect(response.headers['content-disposition']).toBe(
        `inline; filename="logo.png"; filename*=UTF-8''logo.png`,
      );
      const large = await fetchContent(api, videoAsset.AssetUrl, { accept: 'video/*' });
      expectStatus(large, 200);
      expect(large.rawPayload.equals(video)).toBe(true);
      expect(large.headers['content-disposition']).toContain(`filename="clip _1_.mp4"`);
    });

    it('answers HEAD with the headers only', async () => {
      const response = await fetchContent(api, videoAsset.AssetUrl, {}, 'HEAD');
      expectStatus(response, 200);
      expect(response.headers['content-length']).toBe(String(video.length));
      expect(response.rawPayload.length).toBe(0);
    });

    it('answers 304 to a matching If-None-Match, 200 otherwise', async () => {
      const etag = `"${sha256Of(image)}"`;
      const cached = await fetchContent(api, imageAsset.AssetUrl, { 'if-none-match': etag });
      expectStatus(cached, 304);
      expect(cached.rawPayload.length).toBe(0);
      expect(cached.headers.etag).toBe(etag);
      const list = await fetchContent(api, imageAsset.AssetUrl, {
        'if-none-match': `"x", W/${etag}`,
      });
      expectStatus(list, 304);
      expectStatus(await fetchContent(api, imageAsset.AssetUrl, { 'if-none-match': '"x"' }), 200);
    });

    it('answers one range with 206 and Content-Range', async () => {
      const response = await fetchContent(api, videoAsset.AssetUrl, { range: 'bytes=1000-1999' });
      expectStatus(response, 206);
      expect(response.headers['content-range']).toBe(`bytes 1000-1999/${video.length}`);
      expect(response.headers['content-length']).toBe('1000');
      expect(response.headers['content-type']).toBe('video/mp4');
      expect(response.rawPayload.equals(video.subarray(1000, 2000))).toBe(true);
    });

    it('answers open-ended and suffix ranges, clamped to the size', async () => {
      const open = await fetchContent(api, videoAsset.AssetUrl, { range: 'bytes=299000-' });
      expectStatus(open, 206);
      expect(open.headers['content-range']).toBe(
        `bytes 299000-${video.length - 1}/${video.length}`,
      );
      expect(open.rawPayload.equals(video.subarray(299000))).toBe(true);
      const suffix = await fetchContent(api, videoAsset.AssetUrl, { range: 'bytes=-10' });
      expectStatus(suffix, 206);
      expect(suffix.rawPayload.equals(video.subarray(-10))).toBe(true);
      const beyond = await fetchContent(api, videoAsset.AssetUrl, { range: 'bytes=10-99999999' });
      expectStatus(beyond, 206);
      expect(beyond.rawPayload.equals(video.subarray(10))).toBe(true);
    });

    it('answers several ranges as multipart/byteranges, overlapping ones combined', async () => {
      const response = await fetchContent(api, videoAsset.AssetUrl, {
        range: 'bytes=0-9, 100-199, 150-249, -5',
      });
      expectStatus(response, 206);
      const type = response.headers['content-type'] as string;
      expect(type).toMatch(/^multipart\/byteranges; boundary=/);
      expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
      const parts = byteRangeParts(response.rawPayload, type);
      const size = video.length;
      expect(parts.map((p) => p.range)).toEqual([
        `bytes 0-9/${size}`,
        `bytes 100-249/${size}`,
        `bytes ${size - 5}-${size - 1}/${size}`,
      ]);
      expect(parts[0]!.bytes.equals(video.subarray(0, 10))).toBe(true);
      expect(parts[1]!.bytes.equals(video.subarray(100, 250))).toBe(true);
      expect(parts[2]!.bytes.equals(video.subarray(-5))).toBe(true);
    });

    it('answers 416 with Content-Range when no range is satisfiable', async () => {
      const response = await fetchContent(api, videoAsset.AssetUrl, { range: 'bytes=400000-' });
      expectError(response, 416, 'RangeNotSatisfiable');
      expect(response.headers['content-range']).toBe(`bytes */${video.length}`);
    });

    it('ignores a malformed Range, another unit, and a Range under a stale If-Range', async () => {
      const variants: Record<string, string>[] = [
        { range: 'bytes=abc' },
        { range: 'items=0-5' },
        { range: 'bytes=0-5', 'if-range': '"stale"' },
      ];
      for (const headers of variants) {
        const response = await fetchContent(api, imageAsset.AssetUrl, headers);
        expectStatus(response, 200);
        expect(response.rawPayload.equals(image)).toBe(true);
      }
      const fresh = await fetchContent(api, imageAsset.AssetUrl, {
        range: 'bytes=0-5',
        'if-range': `"${sha256Of(image)}"`,
      });
      expectStatus(fresh, 206);
    });

    it("answers 404 for an unknown key and for a key on another tenant's host", async () => {
      const url = new URL(imageAsset.AssetUrl);
      const wrongKey = `${url.origin}/storage/blobs/${'A'.repeat(43)}`;
      expectError(await fetchContent(api, wrongKey), 404);
      expectError(await fetchContent(api, `${url.origin}/storage/blobs/short`), 404);
      const otherHost = imageAsset.AssetUrl.replace('acme.', 'other.');
      expectError(await fetchContent(api, otherHost), 404);
      // A token of another tenant does not matter: the route takes none.
      const withToken = await fetchContent(api, imageAsset.AssetUrl, {
        authorization: `Bearer ${other.token}`,
      });
      expectStatus(withToken, 200);
    });

    it('answers 404 without caching headers when the blob is gone since the lookup', async () => {
      const bytes = png(7, 9);
      const asset = await createAsset(api, acme, bytes, 'image/png', 'gone.png');
      expectStatus(await fetchContent(api, asset.AssetUrl), 200);
      // What the collector does once the asset is deleted on another instance, while this one
      // still holds the key's lookup.
      await api.services.storage.store.delete([
        { tenantId: await api.tenantIdOf(acme), sha256: sha256Of(bytes) },
      ]);
      for (const headers of [{}, { range: 'bytes=0-9' }] as Record<string, string>[]) {
        const gone = await fetchContent(api, asset.AssetUrl, headers);
        expectError(gone, 404);
        expect(gone.headers.etag).toBeUndefined();
        expect(gone.headers['cache-control']).toBeUndefined();
        expect(gone.headers['content-disposition']).toBeUndefined();
      }
    });

    it('gives each asset its own key, even for the same bytes', async () => {
      const again = await createAsset(api, acme, image, 'image/png', 'copy.png');
      expect(again.AssetUrl).not.toBe(imageAsset.AssetUrl);
      const response = await fetchContent(api, again.AssetUrl);
      expect(response.rawPayload.equals(image)).toBe(true);
    });
  });
}
