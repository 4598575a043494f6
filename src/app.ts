// Builds the Fastify instance from the cross-cutting plugins of src/http and the modules that
// createServices (module-wiring.ts) made.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { registerAppRateLimit } from './http/app-rate-limit.ts';
import { registerAuthentication } from './http/authentication.ts';
import { registerChangeContext } from './http/change-context-hook.ts';
import { clientErrorHandler, expectationFailed } from './http/client-errors.ts';
import { registerConditionalGet } from './http/conditional-get.ts';
import { registerContentEncoding } from './http/content-encoding.ts';
import { ApiError } from './http/errors.ts';
import { httpErrorCodes } from './http/error-codes.ts';
import { registerErrorHandling, sendFrameworkError } from './http/error-handler.ts';
import { registerHealth } from './http/health.ts';
import { hasSeveralHosts, normalizeRequestHost } from './http/host-name.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerJsonBodies } from './http/json-body.ts';
import { registerLingeringClose } from './http/lingering-close.ts';
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
import { stdoutLogDestination } from './log-destination.ts';
import type { AppModule } from './module.ts';
import { defineQueues, type Services } from './module-wiring.ts';

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
  // A 413 reaches a client still sending its body: what it still sends is read, then dropped.
  registerLingeringClose(app);
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
  registerChangeContext(app);
  registerConditionalGet(app);
  await registerOpenApi(app, {
    tags: modules.flatMap((module) => module.openApiTags ?? []),
    errorCodes: [httpErrorCodes, ...modules.map((module) => module.errorCodes ?? {})],
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
  defineQueues(services);

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
