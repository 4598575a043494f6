// Bearer-token authentication and scope checks on every protected route (contract §3).
// Verifying a token is the oauth module's job; this hook only asks and answers 401/403.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidTokenChallenge } from './domain-errors.ts';
import { ApiError } from './errors.ts';
import { routeAccess } from './route-access.ts';
import { permits, requiredPermission } from './route-permissions.ts';
import {
  InvalidTokenError,
  type Principal,
  type Scope,
  type TokenVerifier,
} from '../domain/principal.ts';

export { InvalidTokenError, type Principal, type TokenVerifier };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^Bearer(?: |$)/i;

function unauthorized(description: string): ApiError {
  return new ApiError(401, 'InvalidToken', description, {
    headers: { 'WWW-Authenticate': invalidTokenChallenge(description) },
  });
}

/**
 * No bearer token at all (no Authorization, or another scheme): the challenge names the realm and
 * no error code (RFC 6750 §3.1), since the client has not tried a token that could be wrong.
 * The realm is the tenant's base URL, the issuer its tokens come from.
 */
function credentialsRequired(request: FastifyRequest, description: string): ApiError {
  return new ApiError(401, 'InvalidToken', description, {
    headers: { 'WWW-Authenticate': `Bearer realm="${request.tenant.baseUrl}"` },
  });
}

function insufficientScope(access: Scope): ApiError {
  return new ApiError(
    403,
    'InsufficientScope',
    `This operation needs the "${access}" scope, which the token does not carry.`,
    { headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${access}"` } },
  );
}

function insufficientPermission(request: FastifyRequest): ApiError {
  const needed = requiredPermission(request);
  return new ApiError(
    403,
    'InsufficientPermission',
    needed
      ? `The member's roles do not allow this operation (it needs "${needed}").`
      : 'This operation is reserved to members with the owner role.',
  );
}

function asUnauthorized(error: unknown): unknown {
  return error instanceof InvalidTokenError ? unauthorized(error.message) : error;
}

export function registerAuthentication(app: FastifyInstance, verifier: TokenVerifier): void {
  app.decorateRequest('principal', null as unknown as Principal);
  // A callback hook with a synchronous path: a token verified before costs no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = routeAccess(request);
    if (access === 'operator' || access === 'anonymous' || request.is404) return done();
    const header = request.headers.authorization;
    if (header === undefined)
      return done(
        credentialsRequired(
          request,
          'An access token is required (Authorization: Bearer <token>).',
        ),
      );
    const match = BEARER.exec(header);
    if (!match)
      return done(
        BEARER_SCHEME.test(header)
          ? unauthorized('The Authorization header is not a well-formed Bearer token.')
          : credentialsRequired(request, 'The Authorization header is not a Bearer token.'),
      );
    const token = match[1]!;
    const admit = (principal: Principal) => {
      request.principal = principal;
      if (!principal.scopes.has(access)) return done(insufficientScope(access));
      if (principal.permissions && !permits(principal.permissions, request))
        return done(insufficientPermission(request));
      done();
    };
    let principal: Principal | undefined;
    try {
      principal = verifier.verifyCached(token, request.tenant);
    } catch (error) {
      return done(asUnauthorized(error) as Error);
    }
    if (principal) return admit(principal);
    verifier.verify(token, request.tenant).then(admit, (error: unknown) => {
      done(asUnauthorized(error) as Error);
    });
  });
}
