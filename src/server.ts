// `serve`: open the database, migrate (embedded) or check that `omni migrate` ran, make the demo tenant on a database without tenants (embedded
// or PostgreSQL), listen, and shut down gracefully (finish what is in flight, close the database;
// a second signal exits).
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { createServices } from './module-wiring.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/connection/database.ts';
import { awaitsDistribution } from './db/citus/distribution.ts';
import { prepareDatabase } from './migrate-database.ts';
import { publicUrls } from './http/public-urls.ts';
import { describeSample } from './modules/sample/sample-module.ts';
import { TenantExistsError } from './modules/tenants/tenants-module.ts';

const DEMO_TENANT = 'demo';

// How long a server that lost its embedded database's lock may take to close before it exits.
const LOST_LOCK_EXIT_MS = 5_000;

export interface ServeOptions {
  /** Whether a first start fills the demo tenant with the sample catalog (SAMPLE_CATALOG, --no-sample). */
  sample: boolean;
}

export async function serve(
  config: Config,
  options: ServeOptions = { sample: config.sampleCatalog },
): Promise<void> {
  // The server once built: failures reported before that go to stderr.
  const built: { app?: FastifyInstance } = {};
  const database = await openDatabase({
    ...config,
    onCommitOutcome: (outcome) => {
      const message = `a commit's answer was lost with the database primary: ${outcome.status}${outcome.status === 'committed' ? ', answered as done' : ', answered 503'}`;
      if (built.app) built.app.log.warn(outcome, message);
      else console.error(message);
    },
    onBackgroundError: (error, what) => {
      if (what === 'monitor') {
        if (built.app) built.app.log.warn({ err: error }, error.message);
        else console.error(`Warning: ${error.message}`);
        return;
      }
      if (what === 'pool') {
        if (built.app) built.app.log.error({ err: error }, 'an idle database connection failed');
        else console.error(`An idle database connection failed: ${error.message}`);
        return;
      }
      // Another process may now write the same files: stop serving before anything is corrupted.
      const message = `the lock on DATA_DIR=${config.dataDir} was lost (${error.message}); stopping`;
      if (built.app) built.app.log.fatal({ err: error }, message);
      else console.error(message);
      setTimeout(() => process.exit(1), LOST_LOCK_EXIT_MS).unref();
      void (built.app?.close() ?? Promise.resolve()).finally(() => process.exit(1));
    },
  });
  const services = createServices(config, database);
  await prepareDatabase(
    database,
    { migrateOnStart: config.migrateOnStart, waitSeconds: config.schemaWaitSeconds },
    (message) => console.error(message),
  );
  // A first start makes the demo tenant, on PostgreSQL as on the embedded database; a deployment
  // that creates its tenants before it starts never gets one. Instances starting together on a
  // new database race for it: one makes it and prints its credentials, the others find it made.
  let demo;
  if ((await services.tenants.list()).length === 0) {
    demo = await services.tenants.create(DEMO_TENANT).catch((error: unknown) => {
      if (error instanceof TenantExistsError) return undefined;
      throw error;
    });
  }
  const server = await buildApp(services);
  built.app = server;
  // While shutting down, answers end their keep-alive connection: server.close() ends only the
  // connections idle at that moment, and one that turns idle after its answer would otherwise
  // hold the process open for the whole keep-alive timeout.
  let closing = false;
  server.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  server.addHook('onResponse', (_request, _reply, done) => {
    if (closing) server.server.closeIdleConnections();
    done();
  });
  await server.listen({ port: config.port, host: config.host });
  if (await awaitsDistribution(database))
    server.log.warn(
      'this database has the citus extension and holds data that is not distributed yet: run `npm run omni -- distribute` (docs/operations.md, "Citus")',
    );

  const port = (server.server.address() as { port: number }).port;
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
    console.log(
      `Its owner signs in to the console at ${base}/console/ (a new password is chosen at the first sign-in):`,
    );
    console.log(`  Username:          ${demo.owner.Username}`);
    console.log(`  One-time password: ${demo.owner.Password}`);
    const tenantName = demo.tenant.name;
    const tryIt = () => {
      for (const line of tryItLines(base, id, secret, options.sample)) console.log(line);
      for (const line of otherClientLines(portConfig, tenantName, port)) console.log(line);
      console.log('');
    };
    if (!options.sample) tryIt();
    else {
      // After the server answers: the credentials are printed at once, the sample a few seconds on.
      console.log(
        `\nFilling "${tenantName}" with the sample catalog (start with --no-sample or SAMPLE_CATALOG=false for an empty tenant)…`,
      );
      const started = Date.now();
      const tenantId = demo.tenant.id;
      void services.sample.seeder
        .seed(tenantId, base)
        .then((counts) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`The sample catalog is ready in ${seconds} s: ${describeSample(counts)}.`);
          tryIt();
        })
        .catch((error: unknown) => {
          server.log.error({ err: error }, 'the sample catalog could not be made');
          console.error(
            `The sample catalog could not be made (${error instanceof Error ? error.message : String(error)}); ` +
              `the tenant keeps what was made. Run \`npm run omni -- sample seed --tenant ${tenantName}\` to go on.`,
          );
        });
    }
  }

  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      server.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    server.log.info({ signal }, 'shutting down: finishing requests in flight');
    void server
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        server.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** The curl lines of a first start: a token, then the sample's search (or the apps without it). */
function tryItLines(base: string, id: string, secret: string | null, sample: boolean): string[] {
  const token = `TOKEN=$(curl -s -u '${id}:${secret ?? ''}' -d grant_type=client_credentials ${base}/oauth/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`;
  const bearer = 'curl -s -H "Authorization: Bearer $TOKEN"';
  if (!sample)
    return [
      `\nTry it (gets a token, then lists the tenant's apps):`,
      `  ${token} && ${bearer} ${base}/management/oauth/apps`,
    ];
  return [
    `\nTry it: get a token, then search the sample for lanterns (a typo too), and the devices of the store nearest Berlin:`,
    `  ${token}`,
    `  ${bearer} "${base}/private/catalog/items/search?q=lantern&take=3"`,
    `  ${bearer} -H 'Content-Type: application/json' -d '{"Query":"lanturn","Take":3,"IncludeStaticNavigation":true}' ${base}/private/catalog/items`,
    `  ${bearer} "${base}/company/stores/13.40;52.52/logicaldevices"`,
  ];
}

/**
 * How clients other than curl and browsers reach a tenant: Node.js and Python resolve names with
 * the system's resolver, which knows `localhost` but not `{tenant}.localhost` (ENOTFOUND, "Name
 * or service not known"). They call the server's own address with the tenant's Host header, or,
 * where the client cannot set Host (fetch), the server serves the tenant on every host that names
 * none (DEFAULT_TENANT).
 */
function otherClientLines(
  config: Config & { publicPort: number },
  tenant: string,
  port: number,
): string[] {
  const base = publicUrls(config).tenantBaseUrl(tenant);
  const host = new URL(base).host;
  const loopback = `http://127.0.0.1:${port}`;
  if (config.defaultTenant === tenant)
    return [
      `From Node.js, Python or any client: ${loopback} is tenant "${tenant}" too (DEFAULT_TENANT=${tenant}).`,
    ];
  if (!/\.localhost$/i.test(config.apiHost) && config.apiHost.toLowerCase() !== 'localhost')
    return [];
  return [
    `From Node.js or Python, which do not resolve ${host.split(':')[0]}: base URL ${loopback} with the header`,
    `  Host: ${host}   (Python requests and urllib, Node's http and axios; fetch ignores Host), or start`,
    `  the server with DEFAULT_TENANT=${tenant} and use ${loopback} alone, from any client.`,
  ];
}
