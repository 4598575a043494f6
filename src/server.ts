// `serve`: open the database, migrate, make the demo tenant on a new embedded database, listen,
// and shut down gracefully (finish what is in flight, close the database; a second signal exits).
import { buildApp, createServices } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateDatabase } from './schema.ts';
import { publicUrls } from './http/public-urls.ts';

const DEMO_TENANT = 'demo';

export async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  const services = createServices(config, database);
  await migrateDatabase(database);
  let demo;
  if (database.engine === 'pglite' && (await services.tenants.list()).length === 0) {
    demo = await services.tenants.create(DEMO_TENANT);
  }
  const app = await buildApp(services);
  // While shutting down, answers end their keep-alive connection: server.close() ends only the
  // connections idle at that moment, and one that turns idle after its answer would otherwise
  // hold the process open for the whole keep-alive timeout.
  let closing = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
  await app.listen({ port: config.port, host: config.host });

  const port = (app.server.address() as { port: number }).port;
  const portConfig = {
    ...config,
    publicPort: config.publicPort === config.port ? port : config.publicPort,
  };
  if (demo) {
    const base = publicUrls(portConfig).tenantBaseUrl(demo.tenant.name);
    const { ApplicationId: id, ApplicationSecret: secret } = demo.bootstrapApp;
    console.log(
      `\nCreated tenant "${demo.tenant.name}" at ${base} with its management app (the secret is shown only now):`,
    );
    console.log(`  ApplicationId:     ${id}`);
    console.log(`  ApplicationSecret: ${secret}`);
    console.log(`\nTry it (gets a token, then lists the tenant's apps):`);
    console.log(
      `  TOKEN=$(curl -s -u '${id}:${secret}' -d grant_type=client_credentials ${base}/oauth/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/') && curl -s -H "Authorization: Bearer $TOKEN" ${base}/management/oauth/apps\n`,
    );
  }

  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
