// The OpenAPI document comes from the route schemas (one source of truth); /docs renders it.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBodySchema } from './error-body.ts';
import { operatorTag } from './health.ts';
import { idempotencyKeyHeaderSchema, takesIdempotencyKey } from './idempotency-openapi.ts';
import {
  checkDocumentedRoute,
  documentedSchema,
  finishDocument,
  type OpenApiTag,
} from './openapi-operations.ts';
import { accessForPath, type RouteAccess } from './route-access.ts';

const STANDARD_ERRORS: Record<string, string> = {
  400: 'Invalid request (validation; Errors lists the fields)',
  401: 'No bearer token (WWW-Authenticate: Bearer realm="<tenant base URL>", no error code), or a malformed, expired, revoked or foreign-tenant one (error="invalid_token")',
  403: 'The token lacks the scope this route needs',
  404: 'Unknown tenant or resource',
  406: 'Unsupported API version in Accept',
  415: 'Body is not application/json',
  413: 'Body too large',
  409: 'A request with this Idempotency-Key is still running (IdempotencyKeyInUse), or a conflict of the operation',
  422: 'This Idempotency-Key was used with another request (IdempotencyKeyReused)',
};

function errorCodesFor(access: RouteAccess, method: string): string[] {
  if (access === 'operator') return [];
  const codes = ['400', '404', '406'];
  if (access !== 'anonymous') codes.push('401', '403');
  if (['POST', 'PUT', 'PATCH'].includes(method)) codes.push('413', '415');
  if (takesIdempotencyKey(access, method)) codes.push('409', '422');
  return codes;
}

export interface OpenApiOptions {
  /** The tags the modules' operations use, each with its description (AppModule.openApiTags). */
  tags: readonly OpenApiTag[];
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
    for (const code of errorCodesFor(access, methods[0] ?? 'GET')) {
      response[code] ??= { description: STANDARD_ERRORS[code], $ref: 'ErrorBody#' };
    }
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
      servers: [
        {
          url: '{scheme}://{tenant}.{apiHost}',
          description: 'A tenant of this server',
          variables: {
            scheme: { enum: ['https', 'http'], default: 'http' },
            tenant: { default: 'demo', description: 'The tenant name' },
            apiHost: {
              default: 'localhost:8080',
              description: "The server's API_HOST, with the port unless it is the default one",
            },
          },
        },
      ],
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
      'openapiObject' in document ? finishDocument(document.openapiObject) : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
