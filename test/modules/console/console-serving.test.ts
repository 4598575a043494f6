// The console's files at /console/ on tenant hosts: index.html for every page path, hashed
// assets cached for good, a same-origin Content-Security-Policy, and the build check of npm start.
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_DIST, consoleBuildNeeded } from '../../../src/modules/console/console-build.ts';
import { useTestApi, useTenant, errorBody, startTestApi } from '../../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let scriptPath: string;

beforeAll(async () => {
  const assets = await readdir(join(CONSOLE_DIST, 'assets'));
  const script = assets.find((name) => /^index-.*\.js$/.test(name));
  if (!script) throw new Error('console/dist has no entry script: the build did not run');
  scriptPath = `/console/assets/${script}`;
});

const get = (url: string, host = acme.host, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') =>
  api.app.inject({ method: 'GET', url, headers: { host, accept } });

describe('GET /console/ (the page)', () => {
  it('answers index.html with no token, a browser Accept header and a same-origin policy', async () => {
    for (const url of [
      '/console',
      '/console/',
      '/console/items',
      '/console/items/12',
      '/console/callback?code=x',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).toContain(scriptPath);
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain('script-src http://acme.localhost:8080/console/assets/;');
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      // Asset bytes are served from the tenant's base URL, which the policy names for images.
      expect(csp).toContain(`img-src 'self' data: blob: http://acme.localhost:8080`);
    }
  });

  it('loads nothing from another origin (no CDN, no external fonts)', async () => {
    const html = (await get('/console/')).body;
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('is 404 with the error body on an unknown tenant and on a host that names none', async () => {
    const unknown = await get('/console/', 'nobody.localhost');
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).Code).toBe('TenantNotFound');
    const bare = await get('/console/', 'localhost');
    expect(bare.statusCode).toBe(404);
    errorBody(bare);
  });
});

describe('GET /console/ on a server whose console is not built', () => {
  it('answers 503 ConsoleNotBuilt in the error body, and 404 for an asset', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'omni-console-unbuilt-'));
    const unbuilt = await startTestApi({}, { consoleDistDir: empty });
    try {
      const tenant = await unbuilt.createTenant('unbuilt');
      const page = await unbuilt.app.inject({
        method: 'GET',
        url: '/console/items',
        headers: { host: tenant.host, accept: 'text/html' },
      });
      expect(page.statusCode).toBe(503);
      expect(errorBody(page).Code).toBe('ConsoleNotBuilt');
      const asset = await unbuilt.app.inject({
        method: 'GET',
        url: '/console/assets/index-x.js',
        headers: { host: tenant.host },
      });
      expect(asset.statusCode).toBe(404);
    } finally {
      await unbuilt.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('GET /console/assets/* (the build output)', () => {
  it('serves hashed assets with a year-long immutable cache and an ETag', async () => {
    const response = await get(scriptPath, acme.host, '*/*');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toBeTruthy();
    const again = await api.app.inject({
      method: 'GET',
      url: scriptPath,
      headers: { host: acme.host, 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('sends the brotli or gzip copy the browser accepts, with Vary: Accept-Encoding', async () => {
    const plain = await get(scriptPath, acme.host, '*/*');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    const inject = (acceptEncoding: string) =>
      api.app.inject({
        method: 'GET',
        url: scriptPath,
        headers: { host: acme.host, accept: '*/*', 'accept-encoding': acceptEncoding },
      });
    const brotli = await inject('gzip, deflate, br, zstd');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await inject('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    // Each copy its own ETag: a cache never answers one encoding's 304 for another.
    expect(gzip.headers.etag).not.toBe(brotli.headers.etag);
  });

  it('answers 404 with the error body for a missing asset, never the page', async () => {
    const response = await get('/console/assets/index-missing.js', acme.host, '*/*');
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).Code).toBe('RouteNotFound');
  });

  it('refuses paths that leave the build folder', async () => {
    const response = await get('/console/assets/..%2f..%2fpackage.json', acme.host, '*/*');
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain('omnichannel-management-api');
  });

  it('is not in the OpenAPI document (it is no API operation)', async () => {
    const document = (await api.app.inject({ url: '/openapi.json' })).json<{ paths: object }>();
    expect(Object.keys(document.paths).some((p) => p.startsWith('/console'))).toBe(false);
  });
});

describe('the built console', () => {
  it('weighs under 500 KB of JS and CSS gzipped', async () => {
    const dir = join(CONSOLE_DIST, 'assets');
    let gzipped = 0;
    for (const name of await readdir(dir)) {
      if (/\.(js|css)$/.test(name)) gzipped += gzipSync(await readFile(join(dir, name))).length;
    }
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(500 * 1024);
  });
});

describe('consoleBuildNeeded (what npm start checks)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'console-build-'));
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'main.tsx'), 'export {};');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('asks for a build when there is none, none when dist is newer, one when a source changed', async () => {
    expect(consoleBuildNeeded(root)).toBe('the console has not been built yet');
    await mkdir(join(root, 'dist'));
    await writeFile(join(root, 'dist', 'index.html'), '<!doctype html>');
    // Times set apart, not taken as written: files written within a few milliseconds of each
    // other can carry the same modification time (the file system's clock is coarse).
    const past = new Date(Date.now() - 60_000);
    const built = new Date(Date.now() - 30_000);
    await utimes(join(root, 'src', 'main.tsx'), past, past);
    await utimes(join(root, 'src'), past, past);
    await utimes(join(root, 'dist', 'index.html'), built, built);
    expect(consoleBuildNeeded(root)).toBeUndefined();
    await writeFile(join(root, 'src', 'page.tsx'), 'export {};');
    expect(consoleBuildNeeded(root)).toBe('the console sources changed since the last build');
  });

  it('finds the repository console built by the test setup up to date', () => {
    expect(consoleBuildNeeded()).toBeUndefined();
  });
});
