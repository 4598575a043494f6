// A grant served by a public client another module registered (public-clients.ts): the client
// must name itself without a secret, the grant's fields must be there; the grant's refusal is
// answered as RFC 6749 invalid_grant.
import type { FastifyRequest } from 'fastify';
import { oauthErrors } from './oauth-errors.ts';
import type { GrantField, PublicClient, PublicClientGrant } from './public-clients.ts';
import { publicClientId, required } from './token-request.ts';
import type { TokenAnswer, TokenRequestBody } from './token-schemas.ts';

export async function publicClientGrant(
  { client, grant }: { client: PublicClient; grant: PublicClientGrant },
  request: FastifyRequest,
  body: TokenRequestBody,
): Promise<TokenAnswer> {
  const clientId = publicClientId(request, body, client.clientId);
  const fields: Partial<Record<GrantField, string>> = {};
  for (const name of grant.requires) fields[name] = required(body[name], name);
  const outcome = await grant.exchange(request.tenant, clientId, fields);
  if ('refused' in outcome) throw oauthErrors.invalidGrant(outcome.refused);
  const issued = outcome.tokens;
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer' as const,
    expires_in: issued.expiresIn,
    ...(issued.refreshToken !== undefined ? { refresh_token: issued.refreshToken } : {}),
    scope: issued.scope,
  };
}
