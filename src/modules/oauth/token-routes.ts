// The authorization server: POST /oauth/token (RFC 6749: client credentials for apps; the
// grants of public clients that other modules register, e.g. the console's authorization code
// with PKCE and refresh tokens), POST /oauth/revoke (RFC 7009), POST /oauth/introspect
// (RFC 7662), RFC 8414 metadata and the JWKS.
// Their errors use the RFC 6749 body, not the API's (oauth-error-reply.ts).
import type { FastifyPluginAsync } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ClientAuthentication } from './client-authentication.ts';
import { clientCredentialsGrant } from './client-credentials-grant.ts';
import type { DeviceBoundVerifier, PhysicalDeviceLookup } from './device-tokens.ts';
import { introspectRoute } from './introspection-routes.ts';
import { metadataRoutes } from './metadata-routes.ts';
import { oauthErrorHandler } from './oauth-error-reply.ts';
import { oauthErrors } from './oauth-errors.ts';
import { publicClientGrant } from './public-client-grant.ts';
import type { PublicClients } from './public-clients.ts';
import { revokeRoute } from './revocation-routes.ts';
import { requireForm } from './token-request.ts';
import {
  CLIENT_AUTHENTICATION,
  FORM,
  FORM_BODY_LIMIT_BYTES,
  formBodyAnswers,
  OAuthErrorBody,
  TokenRequest,
  TokenResponse,
  tags,
} from './token-schemas.ts';
import type { TokenService } from './token-service.ts';

export interface TokenRoutesOptions {
  tokens: TokenService;
  clients: ClientAuthentication;
  physicalDevice: PhysicalDeviceLookup;
  publicClients: PublicClients;
  /** Verifies tokens as the API does, identity tokens' devices included (introspection). */
  verifier: DeviceBoundVerifier;
}

export const tokenRoutes: FastifyPluginAsync<TokenRoutesOptions> = async (instance, options) => {
  // Forms only: any other body, JSON included, is 415 before a byte of it is read or parsed
  // (oauth-error-reply.ts), where the JSON parser once built a MiB before the route refused it.
  instance.removeAllContentTypeParsers();
  await instance.register(formbody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(oauthErrorHandler);

  app.post(
    '/oauth/token',
    {
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      schema: {
        tags,
        operationId: 'issueToken',
        summary: 'Issue an access or identity token (client credentials)',
        description:
          'A form (application/x-www-form-urlencoded). grant_type=client_credentials: ' +
          'authenticate the app with HTTP Basic (ApplicationId:ApplicationSecret) or with ' +
          "client_id and client_secret, never both; scope narrows the app's scopes, " +
          'physical_device_id asks for an identity token bound to that device. The console ' +
          'uses authorization_code (with PKCE) and refresh_token with client_id=console. ' +
          'Errors as RFC 6749 §5.2: 400 (invalid_request, invalid_grant, unsupported_grant_type…), ' +
          '401 invalid_client, 429 slow_down with Retry-After after repeated failed ' +
          'authentications. The answer is never cached (Cache-Control: no-store).',
        security: CLIENT_AUTHENTICATION,
        consumes: [FORM],
        body: TokenRequest,
        response: {
          200: TokenResponse,
          400: OAuthErrorBody,
          401: OAuthErrorBody,
          ...formBodyAnswers(),
          429: OAuthErrorBody,
        },
      },
    },
    async (request, reply) => {
      requireForm(request);
      const body = request.body;
      const publicGrant = options.publicClients.forGrant(body.grant_type);
      let answer;
      if (publicGrant) answer = await publicClientGrant(publicGrant, request, body);
      else if (body.grant_type === 'client_credentials')
        answer = await clientCredentialsGrant(options, request, body);
      else throw oauthErrors.unsupportedGrantType();
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return answer;
    },
  );

  await app.register(revokeRoute, options);
  await app.register(introspectRoute, options);
  await app.register(metadataRoutes, { tokens: options.tokens });
};
