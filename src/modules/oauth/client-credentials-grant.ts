// grant_type=client_credentials (RFC 6749 §4.4): an app authenticates with its secret and gets
// an access token for its type's scopes (or the subset it asks for), or an identity token bound
// to a registered physical device (app types 1 and 4).
import type { FastifyRequest } from 'fastify';
import type { Scope } from '../../domain/principal.ts';
import { applicationType } from './app-types.ts';
import type { ClientAuthentication } from './client-authentication.ts';
import type { PhysicalDeviceLookup } from './device-tokens.ts';
import { oauthErrors } from './oauth-errors.ts';
import { clientCredentials } from './token-request.ts';
import type { TokenAnswer, TokenRequestBody } from './token-schemas.ts';
import type { TokenService } from './token-service.ts';

export const ALL_SCOPES: readonly Scope[] = ['public', 'private', 'management'];

export interface ClientCredentialsGrantOptions {
  tokens: TokenService;
  clients: ClientAuthentication;
  physicalDevice: PhysicalDeviceLookup;
}

export async function clientCredentialsGrant(
  { tokens, clients, physicalDevice }: ClientCredentialsGrantOptions,
  request: FastifyRequest,
  body: TokenRequestBody,
): Promise<TokenAnswer> {
  const credentials = clientCredentials(request, body);
  const client = await clients.authenticate(
    request.tenant.id,
    credentials.clientId,
    credentials.secret,
    request.ip,
    credentials.basic,
  );
  const type = applicationType(client.applicationTypeId);
  let scopes: readonly Scope[] = type.scopes;
  if (body.scope !== undefined) {
    const requested = [...new Set(body.scope.split(' ').filter(Boolean))];
    const outside = requested.filter((s) => !(type.scopes as readonly string[]).includes(s));
    if (requested.length === 0 || outside.length > 0) {
      throw oauthErrors.invalidScope(type.scopes);
    }
    scopes = ALL_SCOPES.filter((s) => requested.includes(s));
  }
  let device: { id: string; generation: string } | undefined;
  if (body.physical_device_id !== undefined) {
    if (!type.identityTokens) {
      throw oauthErrors.noIdentityTokens();
    }
    const found = await physicalDevice(request.tenant.id, body.physical_device_id);
    if (!found) throw oauthErrors.unknownPhysicalDevice(body.physical_device_id);
    device = { id: body.physical_device_id, generation: found.generation };
  }
  const issued = await tokens.issue(request.tenant, client, scopes, device);
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer' as const,
    expires_in: issued.expiresIn,
    scope: issued.scope,
  };
}
