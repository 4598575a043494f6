// Builds the Fastify instance from the cross-cutting plugins of src/http and the modules.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { registerAppRateLimit } from './http/app-rate-limit.ts';
import { registerAuthentication } from './http/authentication.ts';
import { clientErrorHandler, expectationFailed } from './http/client-errors.ts';
import { registerConditionalGet } from './http/conditional-get.ts';
import { registerContentEncoding } from './http/content-encoding.ts';
import { ApiError } from './http/errors.ts';
import { registerErrorHandling, sendFrameworkError } from './http/error-handler.ts';
import { registerHealth } from './http/health.ts';
import { hasSeveralHosts, normalizeRequestHost } from './http/host-name.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerJsonBodies } from './http/json-body.ts';
import { idempotencyPruneQueue } from './http/idempotency-pruning.ts';
import { IdempotencyStore } from './http/idempotency-store.ts';
import { requestSerializer, urlSerializer } from './http/log-redaction.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi, serversOf } from './http/openapi.ts';
import { registerRouteAccess } from './http/route-access.ts';
import { declarePermissionAreas, inArea } from './http/route-areas.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerTenantResolution } from './http/tenant-host.ts';
import { registerValidation } from './http/validation.ts';
import { registerVersioning } from './http/versioning.ts';
import { publicUrls } from './http/public-urls.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { stdoutLogDestination } from './log-destination.ts';
import type { AppModule, ModuleContext } from './module.ts';
import {
  createAnalyticsModule,
  type AnalyticsServices,
} from './modules/analytics/analytics-module.ts';
import { createCatalogModule, type CatalogServices } from './modules/catalog/catalog-module.ts';
import { createCompanyModule, type CompanyServices } from './modules/company/company-module.ts';
import { createConsoleModule } from './modules/console/console-module.ts';
import {
  createEventsModule,
  type EventsOptions,
  type EventsServices,
} from './modules/events/events-module.ts';
import {
  createIntegrationModule,
  type GatewayProvisioner,
  type IntegrationServices,
} from './modules/integration/integration-module.ts';
import {
  createNotificationsModule,
  type MailTransport,
  type Outbox,
} from './modules/notifications/notifications-module.ts';
import { createMembersModule, type MembersServices } from './modules/members/members-module.ts';
import { createOAuthModule, type OAuthServices } from './modules/oauth/oauth-module.ts';
import { createStorageModule, type StorageServices } from './modules/storage/storage-module.ts';
import { createTenantsModule, type TenantService } from './modules/tenants/tenants-module.ts';

export interface Services {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue;
  /** Every module, in the order the server registers them. */
  modules: AppModule[];
  tenants: TenantService;
  oauth: OAuthServices;
  members: MembersServices;
  outbox: Outbox;
  catalog: CatalogServices;
  integration: IntegrationServices;
  storage: StorageServices;
  company: CompanyServices;
  analytics: AnalyticsServices;
  /** Idempotency-Key claims and stored answers (every POST and PATCH; src/http/idempotency.ts). */
  idempotency: IdempotencyStore;
  events: EventsServices;
  /** The server's logger once it is built (jobs log through it). */
  logger: { current?: FastifyBaseLogger };
}

/**
 * How long a running request holds its Idempotency-Key. Past it, the key's request is taken for
 * dead (its server crashed) and a retry runs it again; no request of this API runs that long.
 */
const IDEMPOTENCY_LEASE_SECONDS = 120;

/** Replaceable outside dependencies (tests stand in their own). */
export interface ServiceOverrides {
  provisioner?: GatewayProvisioner;
  mailTransport?: MailTransport;
  /** Webhooks' clock, retry schedule and DNS resolver. */
  events?: EventsOptions;
  /** Where the console's build is (console/dist by default). */
  consoleDistDir?: string;
  /** Awaited before each chunk of a catalog import commits (a test holds an import there). */
  catalogImportBeforeChunk?: () => Promise<void>;
}

/**
 * Creates every module and wires what one needs of another. Adding a module is one line in the
 * list at the end (and its creation above it).
 *
 * The modules are created in dependency order: each receives only named interfaces of modules
 * created before it, so the modules form a graph without cycles (company, then oauth, then
 * members, then tenants, which provisions a tenant's bootstrap app and owner).
 */
export function createServices(
  config: Config,
  database: DatabaseHandle,
  overrides: ServiceOverrides = {},
): Services {
  const logger: Services['logger'] = {};
  const jobs = new JobQueue(database, {
    pollingIntervalSeconds: config.jobPollingIntervalSeconds,
    maintenanceIntervalSeconds: config.jobMaintenanceIntervalSeconds,
    crashLimit: config.jobCrashLimit,
    heartbeatSeconds: config.jobHeartbeatSeconds,
  });
  const context: ModuleContext = {
    config,
    database,
    jobs,
    log: () => logger.current,
    urls: publicUrls(config),
  };

  const notifications = createNotificationsModule(context, {
    ...(overrides.mailTransport ? { mailTransport: overrides.mailTransport } : {}),
  });
  const company = createCompanyModule(context);
  const oauth = createOAuthModule(context, {
    physicalDevice: (tenantId, deviceId) =>
      company.services.physicalDevices.find(tenantId, deviceId),
  });
  const { tokens, apps, publicClients } = oauth.services;
  const members = createMembersModule(context, {
    tokens: {
      issue: (tenant, clientId, member) => tokens.issueMember(tenant, clientId, member),
      revoke: (sql, tenantId, issued) => tokens.revokeIssued(sql, tenantId, issued),
      invalidate: (sql, tenantId, memberId) => tokens.invalidateApp(sql, tenantId, memberId),
      forget: (tenantId, memberId) => tokens.forget(tenantId, memberId),
      signingKeys: tokens.keys,
      resolveMembersWith: (lookup) => tokens.resolveMembersWith(lookup),
    },
    publicClients,
    notify: (sql, mail) => notifications.services.outbox.enqueue(sql, mail),
    mailSends: () => notifications.services.outbox.sends,
  });
  const tenants = createTenantsModule(context, {
    createBootstrapApp: (tx, tenantId) => apps.createBootstrap(tx, tenantId),
    createOwner: async (tx, tenantId) => {
      const { member, password } = await members.services.members.createOwner(tx, tenantId);
      return { Username: member.Username, Password: password };
    },
    invalidateTenantTokens: (tx, tenantId) => tokens.invalidateTenant(tx, tenantId),
    // analytics is made below; this runs only when a tenant is deleted, long after.
    deleteTenantData: (tx, tenantId) => analytics.services.analytics.forgetTenant(tx, tenantId),
    forgetTenantTokens: (tenantId) => tokens.forgetTenant(tenantId),
    onDeletedElsewhere: (listener) => tokens.onTenantInvalidated(listener),
  });
  const storage = createStorageModule(context);
  const catalog = createCatalogModule(
    context,
    {
      assets: {
        store: async (tenantId, baseUrl, file, body, maxBytes) => {
          const asset = await storage.services.assets.createFromStream(
            tenantId,
            baseUrl,
            file,
            body,
            maxBytes,
          );
          return { id: asset.Id, size: asset.Size, url: asset.AssetUrl };
        },
        open: async (tenantId, assetId) => {
          const blob = await storage.services.assets.blobOf(tenantId, assetId);
          if (!blob) return undefined;
          return {
            size: blob.size,
            mimeType: blob.mimeType,
            read: () => storage.services.store.read(blob.sha256, { start: 0, end: blob.size - 1 }),
          };
        },
        familyOf: (tenantId, assetId) => storage.services.assets.familyOf(tenantId, assetId),
        describe: (tenantId, assetIds, baseUrl) =>
          storage.services.assets.describe(tenantId, assetIds, baseUrl),
        find: (sql, tenantId, keys) => storage.services.assets.find(sql, tenantId, keys),
        onForcedDelete: (release) => storage.services.assets.onForcedDelete(release),
      },
    },
    overrides.catalogImportBeforeChunk
      ? { importBeforeChunk: overrides.catalogImportBeforeChunk }
      : {},
  );
  const integration = createIntegrationModule(
    context,
    { notify: (sql, notification) => notifications.services.outbox.enqueue(sql, notification) },
    { ...(overrides.provisioner ? { provisioner: overrides.provisioner } : {}) },
  );

  const analytics = createAnalyticsModule(context, {
    deviceStamp: (tenantId, deviceId) =>
      company.services.physicalDevices.stampOf(tenantId, deviceId),
  });

  const events = createEventsModule(
    context,
    {
      notify: (sql, notification) => notifications.services.outbox.enqueue(sql, notification),
      adminMail: async (tenantId) =>
        (await integration.services.endpoints.row(tenantId))?.adminMail,
    },
    overrides.events,
  );
  const webConsole = createConsoleModule(
    context,
    overrides.consoleDistDir ? { distDir: overrides.consoleDistDir } : {},
  );

  const modules: AppModule[] = [
    tenants,
    oauth,
    members,
    notifications,
    catalog,
    integration,
    storage,
    company,
    analytics,
    events,
    webConsole,
  ];
  return {
    config,
    database,
    jobs,
    modules,
    tenants: tenants.services.tenants,
    oauth: oauth.services,
    members: members.services,
    outbox: notifications.services.outbox,
    catalog: catalog.services,
    integration: integration.services,
    storage: storage.services,
    company: company.services,
    analytics: analytics.services,
    // Claims and stored answers commit without waiting for the disk (see asyncCommit).
    idempotency: new IdempotencyStore(database.asyncCommit, {
      ttlSeconds: config.idempotencyKeyTtlSeconds,
      leaseSeconds: IDEMPOTENCY_LEASE_SECONDS,
    }),
    events: events.services,
    logger,
  };
}

/** The permission areas a module's routes belong to. */
function permissionAreasOf(module: AppModule): string[] {
  const { permissions } = module;
  return permissions ? [permissions.area, ...(permissions.otherAreas ?? [])] : [];
}

/** Fastify's trustProxy: a hop count becomes the function that Fastify's types ask for. */
function trustProxyOption(value: Config['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
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
  const trustsProxy = config.trustProxy !== false;
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
      // Credentials in query strings (?code=…, ?access_token=…) never reach the log either:
      // every `url` field and every serialized request has them replaced (log-redaction.ts).
      serializers: { req: requestSerializer, url: urlSerializer },
      stream: options.logStream ?? logDestination!.stream,
    },
    genReqId: () => randomUUID(),
    // One access-log line per request (see below) instead of Fastify's two.
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: true,
    }),
    bodyLimit: config.jsonBodyLimitBytes,
    // The client's address and scheme behind a load balancer (sign-in lockouts count per address).
    trustProxy: trustProxyOption(config.trustProxy),
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get the contract's error body (hook below).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (error, request, reply) => {
      sendFrameworkError(error, request, reply);
    },
    // A request without Host reaches the tenant resolution, which refuses it in the error body.
    http: { requireHostHeader: false },
    // Requests Node's parser refuses, and timeouts: the contract's error body (client-errors.ts).
    clientErrorHandler: clientErrorHandler({
      log: (): FastifyBaseLogger => app.log,
      https: config.publicScheme === 'https',
    }),
    // Not a rewrite: the Host header's root dot (`acme.localhost.`) is taken off before routing,
    // so that every reader of the host sees one name (host-name.ts).
    rewriteUrl: (req) => {
      normalizeRequestHost(req, trustsProxy);
      return req.url!;
    },
  });

  app.server.on(
    'checkExpectation',
    expectationFailed({ log: () => app.log, https: config.publicScheme === 'https' }),
  );

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks that never wait take a callback: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (hasSeveralHosts(request.raw.rawHeaders))
      return done(
        new ApiError(400, 'DuplicateHost', 'The request has more than one Host header; send one.'),
      );
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
  await registerSecurityHeaders(app, config);
  await registerAppRateLimit(app, config);
  // Bodies are JSON (the token endpoint adds its form parser); anything else is 415.
  app.removeContentTypeParser('text/plain');
  registerJsonBodies(app);
  registerValidation(app);
  registerRouteAccess(app);
  registerErrorHandling(app);
  registerVersioning(app);
  registerContentEncoding(app);
  const { modules } = services;
  registerTenantResolution(app, {
    apiHost: config.apiHost,
    defaultTenant: config.defaultTenant,
    baseUrlOf: (name) => publicUrls(config).tenantBaseUrl(name),
    tenants: services.tenants,
    hostResolvers: modules.flatMap((m) => m.hostResolvers ?? []),
  });
  registerAuthentication(app, services.oauth.verifier);
  registerIdempotency(app, services.idempotency);
  registerConditionalGet(app);
  await registerOpenApi(app, {
    tags: modules.flatMap((module) => module.openApiTags ?? []),
    // PORT=0 listens on a port the system picks: the document names that one.
    servers: () => {
      const address = app.server.address();
      const listening = typeof address === 'object' && address ? address.port : config.port;
      return serversOf(
        config.port === 0 && config.publicPort === 0
          ? { ...config, publicPort: listening }
          : config,
      );
    },
  });
  registerMetrics(app, config.metricsAllowedAddresses);
  registerHealth(app, services.database);

  for (const module of modules) for (const schema of module.schemas ?? []) app.addSchema(schema);
  declarePermissionAreas(app, modules.flatMap(permissionAreasOf));
  for (const module of modules)
    if (module.routes) await app.register(inArea(module.permissions?.area ?? null, module.routes));
  for (const module of modules)
    for (const queue of module.queues ?? []) services.jobs.define(queue);
  services.jobs.define(idempotencyPruneQueue(services.idempotency, () => services.logger.current));

  services.logger.current = app.log;
  await services.jobs.start(app.log);
  for (const module of modules) await module.start?.();
  app.addHook('onClose', async () => {
    for (const module of [...modules].reverse()) await module.stop?.();
    await services.jobs.stop();
    logDestination?.close();
  });
  return app;
}
