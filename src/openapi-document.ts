// `npm run openapi`: writes the OpenAPI document the server serves at /openapi.json to
// openapi.json at the repository's root, for linters and client generators that read a file
// (test/http/openapi-document.test.ts checks the committed file is what the server says). The
// document depends on no setting and no row, so the server is built on a new in-memory database
// with the defaults.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from './app.ts';
import { createServices } from './module-wiring.ts';
import { loadConfig } from './config.ts';
import { PGLITE_EXTENSIONS, wrapPglite } from './db/connection/embedded-database.ts';
import { migrateDatabase } from './migrate-database.ts';

export const OPENAPI_FILE = path.join(import.meta.dirname, '..', 'openapi.json');

/** The document as the file holds it: two-space JSON with a final newline. */
export const openApiText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

/** The document of a server built with the default settings. */
export async function currentOpenApiDocument(): Promise<unknown> {
  const database = wrapPglite(new PGlite({ extensions: PGLITE_EXTENSIONS }));
  try {
    await migrateDatabase(database);
    const services = createServices(loadConfig({ DATA_DIR: '/nonexistent' }), database);
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const app = await buildApp(services, { logStream: silent });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  await writeFile(OPENAPI_FILE, openApiText(await currentOpenApiDocument()));
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
