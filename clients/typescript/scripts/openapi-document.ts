// The server's OpenAPI document without a running server: the app built on an empty in-memory
// embedded database (the document comes from the route schemas, not from stored data).
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { buildApp, createServices } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { PGLITE_EXTENSIONS, wrapPglite } from '../../../src/db/embedded-database.ts';
import { migrateDatabase } from '../../../src/schema.ts';

export async function openApiDocument(): Promise<unknown> {
  // An explicit environment: the document must not depend on the shell it is written from.
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  const database = wrapPglite(client);
  try {
    await migrateDatabase(database);
    const services = createServices(config, database);
    const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const app = await buildApp(services, { logStream: discard });
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
