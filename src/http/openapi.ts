// The OpenAPI document comes from the route schemas (one source of truth); /docs renders it.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBodySchema } from './error-body.ts';
import { idempotencyKeyHeaderSchema, takesIdempotencyKey } from './idempotency-openapi.ts';
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

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBodySchema);
  // Every tenant route documents the contract's error body for the errors every route can give.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = route.config?.access ?? accessForPath(route.url);
    const response = { ...((route.schema.response as Record<string, unknown> | undefined) ?? {}) };
    for (const code of errorCodesFor(access, methods[0] ?? 'GET')) {
      response[code] ??= { description: STANDARD_ERRORS[code], $ref: 'ErrorBody#' };
    }
    const security: Record<string, string[]>[] | undefined =
      access === 'operator' || access === 'anonymous'
        ? undefined
        : [{ bearer: [] }, { oauth2: [access] }];
    route.schema = { ...route.schema, response, ...(security ? { security } : {}) };
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
      components: {
        securitySchemes: {
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
      const methods = [route.method].flat();
      const access = route.config?.access ?? accessForPath(url);
      if (!schema || !methods.some((method) => takesIdempotencyKey(access, method)))
        return { schema, url };
      return { schema: { ...schema, headers: idempotencyKeyHeaderSchema(schema.headers) }, url };
    },
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
