// POST /oauth/revoke (RFC 7009): an app revokes a token issued to it; a public client (the
// console) signs out, ending the session of a refresh token or of an access token. Unknown or
// invalid tokens are answered 200 as well (RFC 7009 §2.2).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { InvalidTokenError } from '../../domain/principal.ts';
import type { ClientAuthentication } from './client-authentication.ts';
import { oauthErrors } from './oauth-errors.ts';
import type { PublicClient, PublicClients } from './public-clients.ts';
import { clientCredentials, namesPublicClient, requireForm } from './token-request.ts';
import {
  CLIENT_AUTHENTICATION,
  FORM,
  FORM_BODY_LIMIT_BYTES,
  formBodyAnswers,
  OAuthErrorBody,
  RevokeRequest,
  tags,
} from './token-schemas.ts';
import type { TokenService } from './token-service.ts';

export interface RevokeRouteOptions {
  tokens: TokenService;
  clients: ClientAuthentication;
  publicClients: PublicClients;
}

export const revokeRoute: FastifyPluginAsync<RevokeRouteOptions> = async (
  instance,
  { tokens, clients, publicClients },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  /** Sign-out: a refresh token, or an access token, of a public client's session (a token that
   * is none of this client's is answered 200 all the same). */
  async function endSession(
    client: PublicClient,
    tenant: { id: number; baseUrl: string },
    token: string,
  ): Promise<void> {
    if (!token.includes('.')) {
      await client.endSession(tenant.id, { token });
      return;
    }
    let claims;
    try {
      claims = await tokens.verifySignature(token, tenant.baseUrl, { allowExpired: true });
    } catch (error) {
      if (error instanceof InvalidTokenError) return;
      throw error;
    }
    if (claims.client_id !== client.clientId) throw oauthErrors.notYourToken();
    const found = await client.endSession(tenant.id, { token, accessJti: claims.jti! });
    // An access token whose session is gone already is still revoked by itself.
    if (!found) await tokens.revoke(tenant.id, claims);
  }

  app.post(
    '/oauth/revoke',
    {
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      schema: {
        tags,
        operationId: 'revokeToken',
        summary: 'Revoke a token (RFC 7009)',
        description:
          'A form, the client authenticated as for POST /oauth/token: an app revokes a token ' +
          "issued to it (another client's is 400 unauthorized_client); the console " +
          '(client_id=console) ends the session of a refresh or access token. Unknown or ' +
          'invalid tokens are answered 200 as well, with an empty body.',
        security: CLIENT_AUTHENTICATION,
        consumes: [FORM],
        body: RevokeRequest,
        response: {
          // No body and no Content-Type (an empty text would be text/plain).
          200: Type.Unsafe<undefined>({
            type: 'null',
            description: 'Revoked, or the token was not valid anyway (no body)',
          }),
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
      const publicClient = publicClients.find(body.client_id);
      if (publicClient && namesPublicClient(request, body)) {
        await endSession(publicClient, request.tenant, body.token);
        return reply.code(200).header('Cache-Control', 'no-store').send(undefined);
      }
      const credentials = clientCredentials(request, request.body);
      const client = await clients.authenticate(
        request.tenant.id,
        credentials.clientId,
        credentials.secret,
        request.ip,
        credentials.basic,
      );
      let claims;
      try {
        claims = await tokens.verifySignature(request.body.token, request.tenant.baseUrl, {
          allowExpired: true,
        });
      } catch (error) {
        if (error instanceof InvalidTokenError) return reply.code(200).send(undefined);
        throw error;
      }
      if (claims.sub !== client.id) {
        throw oauthErrors.notYourToken();
      }
      await tokens.revoke(request.tenant.id, claims);
      return reply.code(200).send(undefined);
    },
  );
};
