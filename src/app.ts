// Builds the Fastify instance from the cross-cutting plugins of src/http and the modules.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { registerAuthentication } from './http/authentication.ts';
import { ApiError } from './http/errors.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { registerHealth } from './http/health.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRouteAccess } from './http/route-access.ts';
import { registerTenantResolution } from './http/tenant-host.ts';
import { registerValidation } from './http/validation.ts';
import { registerVersioning } from './http/versioning.ts';
import { stdoutLogDestination } from './log-destination.ts';
import { createCatalogModule, type CatalogModule } from './modules/catalog/catalog-module.ts';
import {
  createIntegrationModule,
  type IntegrationModule,
} from './modules/integration/integration-module.ts';
import type { GatewayProvisioner } from './modules/integration/provisioning.ts';
import { Outbox, smtpTransport, type MailTransport } from './modules/notifications/outbox.ts';
import { createOAuthModule, type OAuthModule } from './modules/oauth/oauth-module.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { TenantService } from './modules/tenants/tenant-service.ts';

export interface Services {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue;
  outbox: Outbox;
  tenants: TenantService;
  oauth: OAuthModule;
  catalog: CatalogModule;
  integration: IntegrationModule;
  /** The server's logger once it is built (jobs log through it). */
  logger: { current?: FastifyBaseLogger };
}

/** Replaceable outside dependencies (tests stand in their own). */
export interface ServiceOverrides {
  provisioner?: GatewayProvisioner;
  mailTransport?: MailTransport;
}

/** The URL clients use to reach a host of this server. */
export function publicUrl(config: Config, host: string): string {
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  const port = config.publicPort === defaultPort ? '' : `:${config.publicPort}`;
  return `${config.publicScheme}://${host}${port}`;
}

export function tenantBaseUrl(config: Config, tenantName: string): string {
  return publicUrl(config, `${tenantName}.${config.apiHost}`);
}

export function createServices(
  config: Config,
  database: DatabaseHandle,
  overrides: ServiceOverrides = {},
): Services {
  const logger: Services['logger'] = {};
  const log = () => logger.current;
  const jobs = new JobQueue(database, {
    pollingIntervalSeconds: config.jobPollingIntervalSeconds,
    maintenanceIntervalSeconds: config.jobMaintenanceIntervalSeconds,
  });
  const transport =
    overrides.mailTransport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : undefined);
  const outbox = new Outbox(database, jobs, transport, config.smtpFrom, log);
  return {
    config,
    database,
    jobs,
    outbox,
    tenants: new TenantService(database.db),
    oauth: createOAuthModule(database.db, database, config.tokenTtlSeconds),
    catalog: createCatalogModule(database),
    integration: createIntegrationModule({
      config,
      database,
      jobs,
      outbox,
      urlOf: (host) => publicUrl(config, host),
      tenantBaseUrlOf: (name) => tenantBaseUrl(config, name),
      log,
      ...(overrides.provisioner ? { provisioner: overrides.provisioner } : {}),
    }),
    logger,
  };
}

export interface BuildOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
}

export async function buildApp(
  services: Services,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const { config } = services;
  const logDestination = options.logStream ? undefined : stdoutLogDestination();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens, secrets and subscription keys never reach the log. Named paths only: a
      // wildcard path makes every log line walk its whole object (a tenth of a cached read).
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-subscription-key"]',
          'req.headers.cookie',
          'body.client_secret',
          'body.ApplicationSecret',
        ],
        censor: '[redacted]',
      },
      stream: options.logStream ?? logDestination!.stream,
    },
    genReqId: () => randomUUID(),
    // One access-log line per request (see below) instead of Fastify's two.
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: true,
    }),
    bodyLimit: config.jsonBodyLimitBytes,
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get the contract's error body (hook below).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks that never wait take a callback: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (!closing) return done();
    reply.header('Connection', 'close');
    done(
      new ApiError(503, 'ShuttingDown', 'This server is shutting down; send the request again.', {
        headers: { 'Retry-After': '1' },
      }),
    );
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        host: request.hostname,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
  // Bodies are JSON (the token endpoint adds its form parser); anything else is 415.
  app.removeContentTypeParser('text/plain');
  registerValidation(app);
  registerRouteAccess(app);
  registerErrorHandling(app);
  registerVersioning(app);
  registerTenantResolution(app, {
    apiHost: config.apiHost,
    defaultTenant: config.defaultTenant,
    baseUrlOf: (name) => tenantBaseUrl(config, name),
    tenants: services.tenants,
    hostResolvers: [services.integration.gateway],
  });
  registerAuthentication(app, services.oauth.tokens);
  await registerOpenApi(app);
  registerMetrics(app);
  registerHealth(app, services.database);

  services.catalog.addSharedSchemas(app);
  await app.register(services.oauth.routes);
  await app.register(services.catalog.routes);
  await app.register(services.integration.routes);

  await services.oauth.tokens.start();
  services.logger.current = app.log;
  await services.jobs.start(app.log);
  await services.outbox.requeueUnsent();
  app.addHook('onClose', async () => {
    services.oauth.tokens.stop();
    await services.jobs.stop();
    logDestination?.close();
  });
  return app;
}
