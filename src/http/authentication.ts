// Bearer-token authentication and scope checks on every protected route (contract §3).
// Verifying a token is the oauth module's job; this hook only asks and answers 401/403.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { routeAccess, type Scope } from './route-access.ts';
import type { RequestTenant } from './tenant-host.ts';

export interface Principal {
  tenantId: number;
  appId: string;
  scopes: ReadonlySet<Scope>;
  jti: string;
  expiresAt: number;
  /** The physical device an identity token is bound to. */
  deviceId?: string;
}

export class InvalidTokenError extends Error {}

export interface TokenVerifier {
  /** The principal of a token presented on this tenant's host; throws InvalidTokenError. */
  verify(token: string, tenant: RequestTenant): Promise<Principal>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function unauthorized(description: string): ApiError {
  return new ApiError(401, 'InvalidToken', description, {
    headers: {
      'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description.replaceAll('"', "'")}"`,
    },
  });
}

export function registerAuthentication(app: FastifyInstance, verifier: TokenVerifier): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    const access = routeAccess(request);
    if (access === 'operator' || access === 'anonymous' || request.is404) return;
    const header = request.headers.authorization;
    if (header === undefined)
      throw unauthorized('An access token is required (Authorization: Bearer <token>).');
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('The Authorization header is not a Bearer token.');
    try {
      request.principal = await verifier.verify(match[1]!, request.tenant);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthorized(error.message);
      throw error;
    }
    if (!request.principal.scopes.has(access)) {
      throw new ApiError(
        403,
        'InsufficientScope',
        `This operation needs the "${access}" scope, which the token does not carry.`,
        {
          headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${access}"` },
        },
      );
    }
  });
}
