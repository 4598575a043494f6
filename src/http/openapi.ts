// The OpenAPI document comes from the route schemas (one source of truth); /docs renders it.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBodySchema } from './error-body.ts';
import type { ErrorCodes } from '../domain/error-code-list.ts';
import { listErrorCodes } from './error-codes.ts';
import { operatorTag } from './health.ts';
import { idempotencyKeyHeaderSchema, takesIdempotencyKey } from './idempotency-openapi.ts';
import {
  checkDocumentedRoute,
  documentedSchema,
  finishDocument,
  type OpenApiTag,
} from './openapi-operations.ts';
import type { Config } from '../config.ts';

/** An OpenAPI Server Object: a URL template and its variables. */
interface ServerObject {
  url: string;
  description: string;
  variables: Record<
    string,
    { default: string; enum?: [string, ...string[]]; description?: string }
  >;
}
import { publicUrls } from './public-urls.ts';
import { finishResponses, LOCATION, withHeaders } from './response-headers.ts';
import { accessForPath, type RouteAccess } from './route-access.ts';

const STANDARD_ERRORS: Record<string, string> = {
  400: 'Invalid request (validation; Errors lists the fields)',
  401: 'No bearer token (WWW-Authenticate: Bearer realm="<tenant base URL>", no error code), or a malformed, expired, revoked or foreign-tenant one (error="invalid_token")',
  403: 'The token lacks the scope this route needs',
  404: 'Unknown tenant or resource',
  406: 'Unsupported API version in Accept',
  415: 'Body is not application/json',
  413: 'Body too large',
  414: 'A path parameter longer than the router takes (100 characters)',
  409: 'A request with this Idempotency-Key is still running (IdempotencyKeyInUse), or a conflict of the operation',
  422: 'This Idempotency-Key was used with another request (IdempotencyKeyReused)',
  429: "Past the app's request budget (APP_RATE_LIMITS) or the integration gateway tier's (RateLimitExceeded, RateLimited)",
  503: 'The database cannot be reached (DatabaseUnavailable) or the server is stopping (ShuttingDown); nothing was changed, send it again',
};

function errorCodesFor(access: RouteAccess, method: string, url: string): string[] {
  if (access === 'operator') return [];
  const codes = ['400', '404', '406', '503'];
  if (access !== 'anonymous') codes.push('401', '403', '429');
  // DELETE reads a body when one is sent, as POST, PUT and PATCH do.
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) codes.push('413', '415');
  if (url.includes(':')) codes.push('414');
  if (takesIdempotencyKey(access, method)) codes.push('409', '422');
  return codes;
}

export interface OpenApiOptions {
  /** The tags the modules' operations use, each with its description (AppModule.openApiTags). */
  tags: readonly OpenApiTag[];
  /** Every error code the server answers: the shared ones and each module's (AppModule.errorCodes). */
  errorCodes: readonly ErrorCodes[];
  /**
   * The document's `servers`: the URLs clients use (serversOf), asked for when the document is
   * made (on the first request for it), once the server listens and knows its port.
   */
  servers: () => ServerObject[];
}

/**
 * The URLs clients use, as the document's `servers`: each tenant's host, `{scheme}://{tenant}.
 * {apiHost}`, its defaults the demo tenant at PUBLIC_SCHEME, API_HOST and PUBLIC_PORT (default
 * PORT); in single-tenant mode first the default tenant's, any host that names no tenant.
 */
export function serversOf(
  config: Pick<Config, 'publicScheme' | 'publicPort' | 'apiHost' | 'defaultTenant'>,
): ServerObject[] {
  const apiHost = new URL(publicUrls(config).of(config.apiHost)).host;
  const scheme = { enum: ['https', 'http'] as [string, ...string[]], default: config.publicScheme };
  const tenantHosts = {
    url: '{scheme}://{tenant}.{apiHost}',
    description: 'A tenant of this server',
    variables: {
      scheme,
      tenant: { default: 'demo', description: 'The tenant name' },
      apiHost: {
        default: apiHost,
        description: "The server's API_HOST, with the port unless it is the scheme's default one",
      },
    },
  };
  if (config.defaultTenant === undefined) return [tenantHosts];
  const defaultTenant = {
    url: '{scheme}://{host}',
    description: `Tenant "${config.defaultTenant}" (DEFAULT_TENANT), on any host that names no tenant`,
    variables: {
      scheme,
      host: { default: apiHost, description: 'A host of this server that names no tenant' },
    },
  };
  return [defaultTenant, tenantHosts];
}

export async function registerOpenApi(
  app: FastifyInstance,
  options: OpenApiOptions,
): Promise<void> {
  app.addSchema(ErrorBodySchema);
  const tags = [operatorTag, ...options.tags];
  const declared = new Set<string>();
  for (const { name } of tags) {
    if (declared.has(name)) throw new Error(`The OpenAPI tag "${name}" is declared twice`);
    declared.add(name);
  }
  // Every tenant route documents the contract's error body for the errors every route can give.
  app.addHook('onRoute', (route) => {
    checkDocumentedRoute(route, declared);
    if (!route.schema || route.schema.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = route.config?.access ?? accessForPath(route.url);
    const response = { ...((route.schema.response as Record<string, unknown> | undefined) ?? {}) };
    for (const code of errorCodesFor(access, methods[0] ?? 'GET', route.url)) {
      response[code] ??= { description: STANDARD_ERRORS[code], $ref: 'ErrorBody#' };
    }
    // Every create answers where the created resource is (contract §4).
    if (response[201]) response[201] = withHeaders(response[201], LOCATION);
    // Routes that take no token say so (`security: []`), unless they name their own scheme.
    const security =
      route.schema.security ??
      (access === 'operator' || access === 'anonymous'
        ? []
        : [{ bearer: [] }, { oauth2: [access] }]);
    route.schema = { ...route.schema, response, security };
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Omni-Channel Management API',
        version: '4.0',
        description:
          'Multi-tenant back office of an omni-channel retail platform. Address a tenant by host ' +
          '(`{tenant}.{API_HOST}`), send `Accept: application/vnd.xomni.api-v4-0` and a bearer token from `POST /oauth/token`.',
      },
      // Each tenant is its own host; the variables' defaults are `npm start`'s demo tenant.
      servers: [],
      tags: tags.map(({ name, description }) => ({ name, description })),
      components: {
        securitySchemes: {
          appCredentials: {
            type: 'http',
            scheme: 'basic',
            description:
              "OAuth client authentication (RFC 6749 §2.3.1): an app's ApplicationId and " +
              'ApplicationSecret as user name and password.',
          },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: '/oauth/token',
                scopes: {
                  public: 'Public (device-facing) API',
                  private: 'Private API (catalog, analytics)',
                  management: 'Management API (apps, endpoint, company)',
                },
              },
            },
          },
        },
      },
    },
    // The Idempotency-Key header is documented, not validated by the schema: its hook answers a
    // bad key with its own code (InvalidIdempotencyKey).
    transform: ({ schema, url, route }) => {
      if (!schema) return { schema, url };
      const methods = [route.method].flat();
      const access = route.config?.access ?? accessForPath(url);
      const documented = documentedSchema(schema);
      if (!methods.some((method) => takesIdempotencyKey(access, method)))
        return { schema: documented, url };
      return {
        schema: { ...documented, headers: idempotencyKeyHeaderSchema(documented.headers) },
        url,
      };
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? listErrorCodes(
            finishResponses(
              finishDocument({ ...document.openapiObject, servers: options.servers() }),
            ),
            options.errorCodes,
          )
        : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
