// The console page's script sources: only its own build folder (/console/assets/), so that a
// script uploaded as an asset (served from the same origin under /storage/blobs) could not run in
// the console even if an HTML injection were ever found there.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

/** The sources of one directive of a Content-Security-Policy header. */
function directive(policy: string, name: string): string[] | undefined {
  for (const part of policy.split(';')) {
    const [key, ...sources] = part.trim().split(/\s+/);
    if (key?.toLowerCase() === name) return sources;
  }
  return undefined;
}

/**
 * Whether a CSP source list admits a URL for a page of `pageOrigin` (CSP Level 3 matching, as far
 * as these sources need: keywords, schemes, hosts and paths; a wildcard admits everything here).
 */
function admits(sources: string[], pageOrigin: string, url: string): boolean {
  const target = new URL(url);
  return sources.some((source) => {
    if (source === "'self'") return target.origin === pageOrigin;
    if (source.startsWith("'")) return false; // 'none', nonces and hashes name no URL
    if (source.includes('*')) return true;
    if (/^[a-z][a-z0-9+.-]*:$/i.test(source)) return target.protocol === source;
    const expression = new URL(source.includes('://') ? source : `${target.protocol}//${source}`);
    if (expression.origin !== target.origin) return false;
    const path = source.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
    if (path === '') return true;
    return path.endsWith('/') ? target.pathname.startsWith(path) : target.pathname === path;
  });
}

describe('GET /console/ (the page): Content-Security-Policy script-src', () => {
  it("allows scripts from the console's build folder only", async () => {
    const page = await api.app.inject({
      url: '/console/',
      headers: { host: acme.host, accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    const scripts = directive(policy, 'script-src');
    expect(scripts).toEqual(['http://acme.localhost:8080/console/assets/']);
    // The page's own entry script, as the build names it, is admitted.
    const entry = /<script[^>]+src="([^"]+)"/.exec(page.body)?.[1];
    expect(entry).toMatch(/^\/console\/assets\//);
    expect(
      admits(scripts!, 'http://acme.localhost:8080', `http://acme.localhost:8080${entry}`),
    ).toBe(true);
  });

  it('admits no asset URL and nothing under /storage', async () => {
    const upload = await api.call({
      method: 'POST',
      url: '/management/storage/asset',
      tenant: acme,
      body: {
        FileName: 'evil.js',
        MimeType: 'text/javascript',
        FileBody: Buffer.from('alert(1)').toString('base64'),
      },
    });
    expect(upload.statusCode).toBe(201);
    const { AssetUrl } = upload.json<{ AssetUrl: string }>();
    const page = await api.app.inject({
      url: '/console/items',
      headers: { host: acme.host, accept: 'text/html' },
    });
    const policy = String(page.headers['content-security-policy']);
    // script-src governs scripts, and workers too when worker-src and child-src are absent.
    expect(directive(policy, 'worker-src')).toBeUndefined();
    expect(directive(policy, 'child-src')).toBeUndefined();
    const scripts = directive(policy, 'script-src') ?? directive(policy, 'default-src')!;
    const origin = 'http://acme.localhost:8080';
    for (const url of [
      AssetUrl,
      `${origin}/storage/blobs/${'A'.repeat(43)}`,
      `${origin}/console/../storage/blobs/x`,
      `${origin}/docs/static/index.js`,
      `${origin}/console/favicon.svg`,
    ]) {
      expect(admits(scripts, origin, url), url).toBe(false);
    }
  });
});
