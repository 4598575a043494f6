// POST /oauth/introspect (RFC 7662): a resource server that cannot verify tokens offline, or must
// know of revocations at once, asks whether a token is active and what it stands for. Any app of
// the tenant may ask about any token presented on the tenant's host, as a resource server does
// about its callers' tokens; the answer tells nothing a valid token's own claims do not, and an
// invalid token of any kind is just `{"active": false}` (RFC 7662 §2.2).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { InvalidTokenError } from '../../domain/principal.ts';
import type { RequestTenant } from '../../domain/tenant.ts';
import type { ClientAuthentication } from './client-authentication.ts';
import type { DeviceBoundVerifier } from './device-tokens.ts';
import { isMemberToken } from './token-claims.ts';
import { clientCredentials, requireForm } from './token-request.ts';
import {
  CLIENT_AUTHENTICATION,
  FORM,
  FORM_BODY_LIMIT_BYTES,
  formBodyAnswers,
  IntrospectRequest,
  IntrospectResponse,
  oauthErrorAnswer,
  tags,
  type IntrospectAnswer,
} from './token-schemas.ts';

export interface IntrospectRouteOptions {
  clients: ClientAuthentication;
  verifier: DeviceBoundVerifier;
}

const INACTIVE: IntrospectAnswer = { active: false };

export const introspectRoute: FastifyPluginAsync<IntrospectRouteOptions> = async (
  instance,
  { clients, verifier },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  /** The token's facts, or INACTIVE when it is not valid here now (checked without the cache). */
  async function introspect(token: string, tenant: RequestTenant): Promise<IntrospectAnswer> {
    let inspected;
    try {
      inspected = await verifier.inspect(token, tenant);
    } catch (error) {
      if (error instanceof InvalidTokenError) return INACTIVE;
      throw error;
    }
    const { claims } = inspected;
    return {
      active: true,
      scope: claims.scope,
      // Tokens issued before app tokens carried client_id name their app as subject only.
      client_id: claims.client_id ?? claims.sub!,
      ...(isMemberToken(claims) && claims.preferred_username !== undefined
        ? { username: claims.preferred_username }
        : {}),
      token_type: 'Bearer',
      exp: claims.exp!,
      iat: claims.iat!,
      sub: claims.sub!,
      aud: tenant.baseUrl,
      iss: claims.iss!,
      jti: claims.jti!,
      ...(claims.dev !== undefined ? { dev: claims.dev } : {}),
    };
  }

  app.post(
    '/oauth/introspect',
    {
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      schema: {
        tags,
        operationId: 'introspectToken',
        summary: 'Introspect a token (RFC 7662)',
        description:
          'An app (HTTP Basic ApplicationId:ApplicationSecret, or client_id and client_secret in the form) asks whether a token is active on this tenant now and what it stands for. Any app of the tenant may ask about any token. A token that is unknown, malformed, expired, revoked, of another tenant, of a deleted app or member, issued before a secret rotation, a password or role change, or bound to a deleted device answers `{"active": false}` and nothing else. Checked against the database on every call, so a revocation on any instance shows at once. Refresh tokens are not introspected (`active: false`).',
        security: CLIENT_AUTHENTICATION,
        consumes: [FORM],
        body: IntrospectRequest,
        response: {
          200: IntrospectResponse,
          400: oauthErrorAnswer(
            'invalid_request: no token, a body that is not a form, or client credentials both in HTTP Basic and in the form',
          ),
          401: oauthErrorAnswer(
            'invalid_client: no client credentials, an unknown client or a wrong secret (with WWW-Authenticate: Basic when HTTP Basic was used or nothing was sent)',
          ),
          ...formBodyAnswers(),
          429: oauthErrorAnswer(
            'slow_down: too many failed client authentications for this client id from this address (with Retry-After)',
          ),
        },
      },
    },
    async (request, reply) => {
      requireForm(request);
      const credentials = clientCredentials(request, request.body);
      await clients.authenticate(
        request.tenant.id,
        credentials.clientId,
        credentials.secret,
        request.ip,
        credentials.basic,
      );
      const answer = await introspect(request.body.token, request.tenant);
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return answer;
    },
  );
};
