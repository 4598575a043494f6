// The web console's files at /console/ on every tenant host: the built single-page app
// (console/dist), with index.html for every path that is not a file (the app routes in the
// browser), hashed assets cached for a year, and a Content-Security-Policy that lets the page
// load and call only its own origin, and run scripts only from its own build folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';

/** Where the console is served, and the build's base (console/vite.config.ts). */
const CONSOLE_PATH = 'console';
/** Hashed build output: its name changes with its content, so it never needs revalidating. */
const ASSETS_PREFIX = 'assets/';

export interface ConsoleRouteOptions {
  /** The build output (console/dist). */
  distDir: string;
}

/**
 * Only this origin: styles, fetches. Images also from the tenant's base URL, where asset bytes
 * are served (the same origin unless a proxy changes the port or scheme). Scripts (and workers,
 * which fall back to script-src) only from the build's assets folder, not the whole origin: users'
 * uploads are served from it too (/storage/blobs), and an uploaded script must never run here,
 * even through an HTML injection. A path-restricted source must name its host; the tenant's base
 * URL is the origin the console signs in from (its redirect URIs are under it).
 */
export function consoleContentSecurityPolicy(tenantBaseUrl: string): string {
  return [
    "default-src 'self'",
    `script-src ${tenantBaseUrl}/${CONSOLE_PATH}/${ASSETS_PREFIX}`,
    "style-src 'self'",
    `img-src 'self' data: blob: ${tenantBaseUrl}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const consoleRoutes: FastifyPluginAsync<ConsoleRouteOptions> = async (app, options) => {
  const { distDir } = options;
  // The build writes a brotli and a gzip copy beside each text file (console/vite.config.ts): the
  // one the browser accepts is sent, with Vary: Accept-Encoding (else the file itself).
  await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true });
  // A tenant host, no token (the page signs in itself), any Accept (browsers send text/html).
  const config = { access: 'anonymous' as const, unversioned: true };
  const schema = { hide: true };

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(join(distDir, 'index.html'))) {
      throw new ApiError(
        503,
        'ConsoleNotBuilt',
        'The console has not been built on this server; run `npm run build` where the dev dependencies are installed (npm start does it there by itself).',
      );
    }
    // Revalidated on every load, so a new build reaches browsers at once.
    return reply
      .header('Content-Security-Policy', consoleContentSecurityPolicy(request.tenant.baseUrl))
      .header('Cache-Control', 'no-cache')
      .sendFile('index.html', { cacheControl: false });
  };

  app.get('/console', { config, schema }, sendIndex);
  app.get<{ Params: { '*': string } }>('/console/*', { config, schema }, (request, reply) => {
    const path = request.params['*'];
    if (path.startsWith(ASSETS_PREFIX)) {
      // A missing asset is a 404 (the error body), never the page: a stale page asking for an
      // old hash must fail visibly rather than run HTML as a script.
      return reply.sendFile(path, { maxAge: '365d', immutable: true });
    }
    if (path !== '' && !path.includes('/') && /\.[a-z0-9]+$/i.test(path)) {
      // Top-level static files (favicon.svg): revalidated, as their names carry no hash.
      return reply.sendFile(path, { maxAge: 0 });
    }
    return sendIndex(request, reply);
  });
};
