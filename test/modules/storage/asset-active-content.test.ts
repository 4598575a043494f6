// AssetUrl and uploaded active content: HTML, XHTML, SVG, XML and JavaScript are served as
// attachments (a browser that navigates to one saves it instead of rendering it on the tenant's
// origin), with nosniff and the sandbox CSP as for every asset; and no page of the tenant's origin
// may load an asset as a script (Sec-Fetch-Dest), which Content-Disposition alone does not stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';
import {
  createAsset,
  fetchContent,
  mp4,
  pdf,
  png,
  startStorageApi,
  type StorageTestApi,
} from './storage-fixtures.ts';

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><title>x</title><script>alert(document.domain)</script>');
const SCRIPT = Buffer.from('alert(document.domain);');
const XML = Buffer.from(
  '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
);

describe('GET AssetUrl of active content', () => {
  let api: StorageTestApi;
  let acme: TestTenant;

  beforeAll(async () => {
    api = await startStorageApi('disk');
    acme = await api.createTenant('acme');
  });
  afterAll(() => api.close());

  it.each([
    ['drawing.svg', 'image/svg+xml', SVG],
    ['page.html', 'text/html', HTML],
    ['page.htm', 'text/html; charset=utf-8', HTML],
    ['page.xhtml', 'application/xhtml+xml', HTML],
    ['data.xml', 'application/xml', XML],
    ['data.xml', 'text/xml', XML],
    ['feed.atom', 'application/atom+xml', XML],
    ['style.xsl', 'application/xslt+xml', XML],
    ['app.js', 'text/javascript', SCRIPT],
    ['app.mjs', 'application/javascript', SCRIPT],
    ['old.js', 'application/x-javascript', SCRIPT],
    ['app.es', 'application/ecmascript', SCRIPT],
    ['items.csv', 'text/csv', Buffer.from('SKU,Title\n1,"=HYPERLINK(""x"")"\n')],
    ['items.jsonl', 'application/x-ndjson', Buffer.from('{"SKU":"1"}\n')],
  ])(
    'serves %s (%s) as an attachment, with nosniff and the sandbox CSP',
    async (name, type, bytes) => {
      const asset = await createAsset(api, acme, bytes, type, name);
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await fetchContent(api, asset.AssetUrl, { accept: '*/*' }, method);
        expectStatus(response, 200);
        expect(response.headers['content-type']).toBe(type);
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename="${name}"; filename*=UTF-8''${name}`,
        );
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['content-security-policy']).toContain('sandbox');
      }
      const part = await fetchContent(api, asset.AssetUrl, { range: 'bytes=0-3' });
      expectStatus(part, 206);
      expect(part.headers['content-disposition']).toMatch(/^attachment; /);
    },
  );

  it.each([
    ['picture.png', 'image/png', png()],
    ['clip.mp4', 'video/mp4', mp4()],
    ['manual.pdf', 'application/pdf', pdf()],
    ['notes.txt', 'text/plain', Buffer.from('<script>alert(1)</script>')],
    ['data.json', 'application/json', Buffer.from('{"a":1}')],
  ])('keeps %s (%s) inline', async (name, type, bytes) => {
    const asset = await createAsset(api, acme, bytes, type, name);
    const response = await fetchContent(api, asset.AssetUrl);
    expectStatus(response, 200);
    expect(response.headers['content-disposition']).toMatch(/^inline; /);
  });

  it("refuses to be loaded as a script by a page of the tenant's own origin", async () => {
    const asset = await createAsset(api, acme, SCRIPT, 'text/javascript', 'app.js');
    for (const destination of ['script', 'worker', 'sharedworker', 'serviceworker']) {
      const response = await fetchContent(api, asset.AssetUrl, {
        accept: '*/*',
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'no-cors',
        'sec-fetch-dest': destination,
      });
      expectError(response, 403, 'AssetNotScriptSource');
    }
  });

  it("serves the same origin's other loads, and other origins' script loads", async () => {
    const script = await createAsset(api, acme, SCRIPT, 'text/javascript', 'app.js');
    const image = await createAsset(api, acme, png(), 'image/png', 'picture.png');
    const sameOrigin = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors' };
    const loads: [string, Record<string, string>][] = [
      [image.AssetUrl, { ...sameOrigin, 'sec-fetch-dest': 'image' }],
      [script.AssetUrl, { ...sameOrigin, 'sec-fetch-dest': 'document' }],
      [script.AssetUrl, { ...sameOrigin, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' }],
      // A shop's own page on another site: its CSP decides, not ours.
      [script.AssetUrl, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'script' }],
      // No fetch metadata at all (curl, an older browser).
      [script.AssetUrl, {}],
    ];
    for (const [url, headers] of loads) {
      expectStatus(await fetchContent(api, url, { accept: '*/*', ...headers }), 200);
    }
    // A browser's cache must not answer a script load with the 200 it kept from another load.
    const kept = await fetchContent(api, script.AssetUrl, { accept: '*/*' });
    expect(kept.headers.vary).toBe('Sec-Fetch-Site, Sec-Fetch-Dest');
  });
});
