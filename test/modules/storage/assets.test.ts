// Assets (contract §5.4): upload as JSON or raw bytes, fetch, list, delete — on both blob stores.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { expectError, expectStatus, etagOf } from '../../support/expectations.ts';
import {
  createAsset,
  jpeg,
  mp4,
  pdf,
  png,
  sha256Of,
  startStorageApi,
  STORE_KINDS,
  uploadJson,
  uploadRaw,
  type AssetJson,
  type StorageTestApi,
} from './storage-fixtures.ts';

const BASE = '/management/storage';

for (const kind of STORE_KINDS) {
  describe(`assets on the ${kind} store`, () => {
    let api: StorageTestApi;
    let acme: TestTenant;
    let other: TestTenant;

    beforeAll(async () => {
      api = await startStorageApi(kind, { ASSET_MAX_BYTES: '65536' });
      acme = await api.createTenant('acme');
      other = await api.createTenant('other');
    });
    afterAll(() => api.close());

    const count = async (tenant: TestTenant) => {
      const response = await api.call({ url: `${BASE}/assets?take=1`, tenant });
      return response.json<{ TotalCount: number }>().TotalCount;
    };

    describe('POST /management/storage/asset', () => {
      it('stores a base64 FileBody: 201 with Location and an AssetUrl', async () => {
        const bytes = png(4, 4);
        const response = await uploadJson(api, acme, bytes, 'image/png', 'logo.png');
        expectStatus(response, 201);
        const asset = response.json<AssetJson>();
        expect(asset).toEqual({
          Id: expect.any(Number) as number,
          FileName: 'logo.png',
          MimeType: 'image/png',
          Size: bytes.length,
          AssetUrl: expect.stringMatching(
            /^http:\/\/acme\.localhost:8080\/storage\/blobs\/[A-Za-z0-9_-]{43}$/,
          ) as string,
        });
        expect(response.headers.location).toBe(`${BASE}/asset/${asset.Id}`);
        expect(await api.hasBlob(acme, sha256Of(bytes))).toBe(true);
      });

      it('stores documents and videos as declared', async () => {
        for (const [bytes, type] of [
          [pdf(), 'application/pdf'],
          [mp4(), 'video/mp4'],
          [Buffer.from('a,b\n1,2\n'), 'text/csv; charset=utf-8'],
        ] as const) {
          const response = await uploadJson(api, acme, bytes, type);
          expectStatus(response, 201);
          expect(response.json<AssetJson>().MimeType).toBe(type);
        }
      });

      it('accepts base64 with line breaks', async () => {
        const encoded = png()
          .toString('base64')
          .replace(/(.{20})/g, '$1\r\n');
        const response = await api.call({
          method: 'POST',
          url: `${BASE}/asset`,
          tenant: acme,
          body: { FileName: 'a.png', MimeType: 'image/png', FileBody: encoded },
        });
        expectStatus(response, 201);
      });

      it('refuses an image whose bytes are not of its MIME type with 400, storing nothing', async () => {
        const before = await count(acme);
        expectError(
          await uploadJson(api, acme, pdf(), 'image/png'),
          400,
          'ContentDoesNotMatchMimeType',
        );
        expectError(
          await uploadJson(api, acme, png(), 'image/jpeg'),
          400,
          'ContentDoesNotMatchMimeType',
        );
        expectError(
          await uploadJson(api, acme, jpeg(), 'image/gif'),
          400,
          'ContentDoesNotMatchMimeType',
        );
        expectError(
          await uploadJson(api, acme, pdf(), 'image/svg+xml'),
          400,
          'ContentDoesNotMatchMimeType',
        );
        expectError(
          await uploadJson(api, acme, pdf(), 'image/x-unknown'),
          400,
          'UnsupportedImageType',
        );
        expect(await count(acme)).toBe(before);
        expect(await api.spoolFiles()).toEqual([]);
      });

      it('accepts a JPEG declared as image/jpg and an SVG', async () => {
        expectStatus(await uploadJson(api, acme, jpeg(), 'image/jpg'), 201);
        const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>');
        expectStatus(await uploadJson(api, acme, svg, 'image/svg+xml'), 201);
      });

      it('reads an SVG prolog of comments, a doctype and processing instructions in linear time', async () => {
        const prolog =
          '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: a drawing app -->\n' +
          '<?xml-stylesheet href="a.css"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" ' +
          '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY e "x"> ]>\n<!---->';
        const valid = Buffer.from(`${prolog}<svg xmlns="http://www.w3.org/2000/svg"/>`);
        expectStatus(await uploadJson(api, acme, valid, 'image/svg+xml'), 201);
        // The shape that backtracked exponentially: empty comments, then no <svg>. 60 of them would
        // have taken longer than the universe's age; linear, they are answered as any mismatch.
        const hostile = Buffer.from(`${'<!---->'.repeat(60)}x`);
        expectError(
          await uploadJson(api, acme, hostile, 'image/svg+xml'),
          400,
          'ContentDoesNotMatchMimeType',
        );
      });

      it('answers 413 past ASSET_MAX_BYTES', async () => {
        const response = await uploadJson(
          api,
          acme,
          Buffer.alloc(65537, 1),
          'application/octet-stream',
        );
        expectError(response, 413);
        expectStatus(
          await uploadJson(api, acme, Buffer.alloc(65536, 2), 'application/octet-stream'),
          201,
        );
      });

      it.each([
        [
          'FileBody not base64',
          { FileName: 'a', MimeType: 'text/plain', FileBody: 'abc$' },
          'InvalidFileBody',
        ],
        [
          'MimeType not a MIME type',
          { FileName: 'a', MimeType: 'png', FileBody: 'AAAA' },
          'InvalidMimeType',
        ],
        [
          'FileName with a slash',
          { FileName: 'a/b', MimeType: 'text/plain', FileBody: 'AAAA' },
          'InvalidFileName',
        ],
        [
          'FileName with a right-to-left override (shows as "exe.png")',
          { FileName: '\u202egnp.exe', MimeType: 'text/plain', FileBody: 'AAAA' },
          'InvalidFileName',
        ],
        [
          'FileName with a C1 control character',
          { FileName: 'a\u0085b', MimeType: 'text/plain', FileBody: 'AAAA' },
          'InvalidFileName',
        ],
        [
          'an empty file',
          { FileName: 'a', MimeType: 'text/plain', FileBody: '' },
          'ValidationFailed',
        ],
        ['FileName missing', { MimeType: 'text/plain', FileBody: 'AAAA' }, 'ValidationFailed'],
        [
          'an unknown field',
          { FileName: 'a', MimeType: 'text/plain', FileBody: 'AAAA', Url: 'x' },
          'ValidationFailed',
        ],
      ])('refuses %s with 400', async (_case, body, code) => {
        const response = await api.call({
          method: 'POST',
          url: `${BASE}/asset`,
          tenant: acme,
          body,
        });
        expectError(response, 400, code);
      });

      it('needs a management token', async () => {
        expectError(
          await api.call({
            method: 'POST',
            url: `${BASE}/asset`,
            tenant: acme,
            token: null,
            body: {},
          }),
          401,
        );
        expectError(
          await api.call({
            method: 'POST',
            url: `${BASE}/asset`,
            tenant: acme,
            token: other.token,
            body: { FileName: 'a', MimeType: 'text/plain', FileBody: 'AAAA' },
          }),
          401,
        );
      });
    });

    describe('POST /management/storage/asset/raw', () => {
      it('stores the body with the Content-Type as MimeType', async () => {
        const bytes = mp4(5000);
        const response = await uploadRaw(api, acme, bytes, 'video/mp4', 'clip one.mp4');
        expectStatus(response, 201);
        const asset = response.json<AssetJson>();
        expect(asset).toMatchObject({
          FileName: 'clip one.mp4',
          MimeType: 'video/mp4',
          Size: 5000 + 24,
        });
        expect(response.headers.location).toBe(`${BASE}/asset/${asset.Id}`);
      });

      it('takes a JSON file as bytes, not as a request body', async () => {
        const response = await uploadRaw(
          api,
          acme,
          Buffer.from('{"a":1}'),
          'application/json',
          'a.json',
        );
        expectStatus(response, 201);
        expect(response.json<AssetJson>()).toMatchObject({ MimeType: 'application/json', Size: 7 });
      });

      it('refuses a .png that is not a PNG with 400, storing nothing', async () => {
        const before = await count(acme);
        expectError(
          await uploadRaw(api, acme, jpeg(), 'image/png', 'fake.png'),
          400,
          'ContentDoesNotMatchMimeType',
        );
        expect(await count(acme)).toBe(before);
        expect(await api.spoolFiles()).toEqual([]);
      });

      it('answers 413 past the limit, by Content-Length or by counting', async () => {
        const before = await count(acme);
        expectError(
          await uploadRaw(api, acme, Buffer.alloc(70000, 3), 'application/octet-stream'),
          413,
          'AssetTooLarge',
        );
        const chunked = await api.app.inject({
          method: 'POST',
          url: `${BASE}/asset/raw?fileName=big`,
          headers: {
            host: acme.host,
            authorization: `Bearer ${acme.token}`,
            'content-type': 'application/octet-stream',
            'transfer-encoding': 'chunked',
          },
          payload: Readable.from(
            (function* () {
              for (let i = 0; i < 10; i++) yield Buffer.alloc(10_000, i);
            })(),
          ),
        });
        expectError(chunked, 413, 'AssetTooLarge');
        expect(await count(acme)).toBe(before);
        expect(await api.spoolFiles()).toEqual([]);
      });

      it('needs a well-formed Content-Type (415), a fileName and a byte (400)', async () => {
        expectError(await uploadRaw(api, acme, pdf(), undefined), 415);
        const response = await api.app.inject({
          method: 'POST',
          url: `${BASE}/asset/raw`,
          headers: {
            host: acme.host,
            authorization: `Bearer ${acme.token}`,
            'content-type': 'text/plain',
          },
          payload: 'x',
        });
        expectError(response, 400, 'ValidationFailed');
        expectError(await uploadRaw(api, acme, pdf(), 'not a type'), 415);
        expectError(await uploadRaw(api, acme, Buffer.alloc(0), 'text/plain'), 400, 'EmptyAsset');
      });

      it('needs a management token of the tenant', async () => {
        expectError(await uploadRaw(api, acme, pdf(), 'application/pdf', 'a.pdf', null), 401);
        expectError(
          await uploadRaw(api, acme, pdf(), 'application/pdf', 'a.pdf', other.token),
          401,
        );
      });
    });

    describe('GET /management/storage/asset/{id}', () => {
      it('returns the asset with an ETag', async () => {
        const asset = await createAsset(api, acme);
        const response = await api.call({ url: `${BASE}/asset/${asset.Id}`, tenant: acme });
        expectStatus(response, 200);
        expect(response.json()).toEqual(asset);
        expect(etagOf(response)).toMatch(/^"[^"]+"$/);
      });

      it("answers 404 for an unknown id and for another tenant's asset, 400 for a bad id", async () => {
        const asset = await createAsset(api, acme);
        expectError(
          await api.call({ url: `${BASE}/asset/99999999`, tenant: acme }),
          404,
          'NotFound',
        );
        expectError(
          await api.call({ url: `${BASE}/asset/${asset.Id}`, tenant: other }),
          404,
          'NotFound',
        );
        expectError(await api.call({ url: `${BASE}/asset/abc`, tenant: acme }), 400);
        expectError(
          await api.call({ url: `${BASE}/asset/${asset.Id}`, tenant: acme, token: other.token }),
          401,
        );
      });
    });

    describe('GET /management/storage/assets', () => {
      it("pages the tenant's assets in id order with the total count", async () => {
        const fresh = await api.createTenant(`list${kind}`);
        const made: AssetJson[] = [];
        for (let i = 0; i < 3; i++)
          made.push(await createAsset(api, fresh, pdf(`n${i}`), 'application/pdf', `${i}.pdf`));
        const page = await api.call({ url: `${BASE}/assets?skip=1&take=1`, tenant: fresh });
        expectStatus(page, 200);
        expect(page.json()).toEqual({ Results: [made[1]], TotalCount: 3 });
        const all = await api.call({ url: `${BASE}/assets`, tenant: fresh });
        expect(all.json()).toEqual({ Results: made, TotalCount: 3 });
        const empty = await api.call({ url: `${BASE}/assets?skip=5`, tenant: fresh });
        expect(empty.json()).toEqual({ Results: [], TotalCount: 3 });
        expectError(await api.call({ url: `${BASE}/assets?take=0`, tenant: fresh }), 400);
        expectError(await api.call({ url: `${BASE}/assets?skip=-1`, tenant: fresh }), 400);
      });
    });

    describe('DELETE /management/storage/asset/{id}', () => {
      it('deletes an unrelated asset: 204, then 404; its URL stops serving', async () => {
        const asset = await createAsset(api, acme);
        const url = new URL(asset.AssetUrl);
        const served = () => api.app.inject({ url: url.pathname, headers: { host: url.hostname } });
        // Served once before: the delete ends the lookup this instance keeps.
        expectStatus(await served(), 200);
        const response = await api.call({
          method: 'DELETE',
          url: `${BASE}/asset/${asset.Id}`,
          tenant: acme,
        });
        expectStatus(response, 204);
        expectError(await api.call({ url: `${BASE}/asset/${asset.Id}`, tenant: acme }), 404);
        expectError(
          await api.call({ method: 'DELETE', url: `${BASE}/asset/${asset.Id}`, tenant: acme }),
          404,
        );
        expectError(await served(), 404);
      });

      it('honours If-Match (412 on a stale ETag)', async () => {
        const asset = await createAsset(api, acme);
        const url = `${BASE}/asset/${asset.Id}`;
        expectError(
          await api.call({
            method: 'DELETE',
            url,
            tenant: acme,
            headers: { 'if-match': '"nope"' },
          }),
          412,
        );
        const etag = etagOf(await api.call({ url, tenant: acme }));
        expectStatus(
          await api.call({ method: 'DELETE', url, tenant: acme, headers: { 'if-match': etag } }),
          204,
        );
      });

      it("answers 404 for another tenant's asset and leaves it", async () => {
        const asset = await createAsset(api, acme);
        expectError(
          await api.call({ method: 'DELETE', url: `${BASE}/asset/${asset.Id}`, tenant: other }),
          404,
        );
        expectStatus(await api.call({ url: `${BASE}/asset/${asset.Id}`, tenant: acme }), 200);
      });
    });
  });
}
