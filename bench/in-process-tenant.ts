// An in-process server on a new embedded database (or DATABASE_URL) with one tenant, for the
// benches that drive the app with app.inject: its host, its id, and tokens of its bootstrap app.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';
import { createServices } from '../src/module-wiring.ts';

export interface InProcessTenant {
  app: FastifyInstance;
  database: DatabaseHandle;
  host: string;
  tenantId: number;
  /** A client-credentials token of the tenant's bootstrap app (all its scopes, or `scope`). */
  token: (scope?: string) => Promise<string>;
}

/** A client-credentials token of `client` on the tenant at `host` (all its scopes, or `scope`). */
export async function clientToken(
  app: FastifyInstance,
  host: string,
  client: { ApplicationId: string; ApplicationSecret: string | null },
  scope?: string,
): Promise<string> {
  const basic = Buffer.from(`${client.ApplicationId}:${client.ApplicationSecret ?? ''}`).toString(
    'base64',
  );
  const answer = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      host,
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: `grant_type=client_credentials${scope ? `&scope=${scope}` : ''}`,
  });
  return answer.json<{ access_token: string }>().access_token;
}

/** Runs `work` with the tenant `<prefix><n>`, then closes the database and removes its folder. */
export async function withInProcessTenant<T>(
  prefix: string,
  work: (tenant: InProcessTenant) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `omni-${prefix}-`));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const host = `${prefix}${Date.now() % 100000}.localhost`;
  try {
    await migrateDatabase(database);
    const services = createServices(config, database);
    const { tenant, bootstrapApp } = await services.tenants.create(host.split('.')[0]!);
    const app = await buildApp(services);
    await app.ready();
    const token = (scope?: string) => clientToken(app, host, bootstrapApp, scope);
    return await work({ app, database, host, tenantId: tenant.id, token });
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
