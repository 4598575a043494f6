// What clients discover about the authorization server: its RFC 8414 metadata and the public
// keys (JWKS) that verify its tokens.
import type { FastifyPluginAsync } from 'fastify';
import { ALL_SCOPES } from './client-credentials-grant.ts';
import { tags } from './token-schemas.ts';
import type { TokenService } from './token-service.ts';

export const metadataRoutes: FastifyPluginAsync<{ tokens: TokenService }> = async (
  app,
  { tokens },
) => {
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags,
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        description:
          "The tenant's issuer, its endpoints (authorization, token, revocation, JWKS), and the " +
          'grants, scopes and client authentication methods it supports, for OAuth libraries ' +
          'that discover them. No token; cacheable for 5 minutes.',
      },
    },
    async (request, reply) => {
      const base = request.tenant.baseUrl;
      reply.header('Cache-Control', 'public, max-age=300');
      return {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        revocation_endpoint: `${base}/oauth/revoke`,
        jwks_uri: `${base}/.well-known/jwks.json`,
        grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
          'none',
        ],
        revocation_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
          'none',
        ],
        // Apps only: a public client cannot authenticate, and introspection needs it (RFC 7662 §2.1).
        introspection_endpoint: `${base}/oauth/introspect`,
        introspection_endpoint_auth_methods_supported: [
          'client_secret_basic',
          'client_secret_post',
        ],
        scopes_supported: ALL_SCOPES,
      };
    },
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags,
        operationId: 'getJwks',
        summary: 'Public keys that verify this server’s tokens (JWKS)',
        description:
          'The ES256 keys, by kid, that sign the tokens still valid (a rotated key stays until ' +
          'its last token expires). No token; cacheable for a minute.',
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return tokens.keys.jwks();
    },
  );
};
