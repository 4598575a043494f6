// The authorization server: POST /oauth/token (RFC 6749: client credentials for apps; the
// authorization code with PKCE and refresh tokens for members signing in through the console),
// POST /oauth/revoke (RFC 7009), RFC 8414 metadata and the JWKS. Its errors use the RFC 6749
// body, not the API's.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { knownApiError } from '../../http/domain-errors.ts';
import { InvalidTokenError } from '../../http/authentication.ts';
import { sendError } from '../../http/error-handler.ts';
import type { Scope } from '../../http/route-access.ts';
import { applicationType } from './app-types.ts';
import type { ClientAuthentication } from './client-authentication.ts';
import { OAuthError, invalidRequest, oauthErrors } from './oauth-errors.ts';
import type { TokenService } from './token-service.ts';
import type { PhysicalDeviceLookup } from './device-tokens.ts';
import { CONSOLE_CLIENT_ID } from './console-client.ts';
import type { MemberSessions, SessionTokens } from './member-sessions.ts';

const tags = ['OAuth'];
const ALL_SCOPES: readonly Scope[] = ['public', 'private', 'management'];

const TokenRequest = Type.Object(
  {
    grant_type: Type.String({
      description:
        'client_credentials (apps), authorization_code or refresh_token (the console, client_id=console, no secret).',
    }),
    client_id: Type.Optional(
      Type.String({ description: 'With client_secret, instead of HTTP Basic.' }),
    ),
    client_secret: Type.Optional(Type.String()),
    scope: Type.Optional(
      Type.String({ description: "Space-separated subset of the app's scopes." }),
    ),
    physical_device_id: Type.Optional(
      Type.String({
        description:
          'Asks for an identity token bound to this physical device (app types 1 and 4).',
      }),
    ),
    code: Type.Optional(Type.String({ description: 'authorization_code: the code.' })),
    redirect_uri: Type.Optional(
      Type.String({ description: 'authorization_code: as in the authorization request.' }),
    ),
    code_verifier: Type.Optional(
      Type.String({ description: 'authorization_code: the PKCE verifier (RFC 7636).' }),
    ),
    refresh_token: Type.Optional(Type.String({ description: 'refresh_token: the token.' })),
  },
  { title: 'TokenRequest' },
);

const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    refresh_token: Type.Optional(
      Type.String({
        description:
          'authorization_code and refresh_token grants: the next refresh token (single use).',
      }),
    ),
    scope: Type.String(),
  },
  { title: 'TokenResponse' },
);

const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { title: 'OAuthError', description: 'RFC 6749 §5.2 error body' },
);

const RevokeRequest = Type.Object(
  {
    token: Type.String(),
    token_type_hint: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'RevokeRequest' },
);

const FORM = 'application/x-www-form-urlencoded';

interface ClientCredentials {
  clientId: string;
  secret: string;
  basic: boolean;
}

function decodeFormComponent(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}

/** Client credentials from HTTP Basic or from the form, never both (RFC 6749 §2.3.1). */
function clientCredentials(
  request: FastifyRequest,
  body: { client_id?: string; client_secret?: string },
): ClientCredentials {
  const header = request.headers.authorization;
  const inForm = body.client_id !== undefined || body.client_secret !== undefined;
  if (header !== undefined) {
    if (inForm)
      throw invalidRequest(
        'Authenticate the client with HTTP Basic or with form fields, not both.',
      );
    const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) {
      throw oauthErrors.notBasicAuthentication();
    }
    return {
      clientId: decodeFormComponent(decoded.slice(0, colon)),
      secret: decodeFormComponent(decoded.slice(colon + 1)),
      basic: true,
    };
  }
  if (body.client_id === undefined || body.client_secret === undefined) {
    throw oauthErrors.clientAuthenticationRequired();
  }
  return { clientId: body.client_id, secret: body.client_secret, basic: false };
}

function requireForm(request: FastifyRequest): void {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM)) {
    throw invalidRequest(`The request body must be ${FORM}.`);
  }
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.message });
}

export interface TokenRoutesOptions {
  tokens: TokenService;
  clients: ClientAuthentication;
  physicalDevice: PhysicalDeviceLookup;
  sessions: MemberSessions;
}

/** A public client names itself with client_id alone: no secret, no HTTP Basic. */
function publicClient(
  request: FastifyRequest,
  body: { client_id?: string; client_secret?: string },
): string {
  if (request.headers.authorization !== undefined || body.client_secret !== undefined)
    throw invalidRequest('The console is a public client: send client_id without a secret.');
  if (body.client_id !== CONSOLE_CLIENT_ID) throw oauthErrors.unknownPublicClient(body.client_id);
  return body.client_id;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw invalidRequest(`${name} is required.`);
  return value;
}

const sessionAnswer = (issued: SessionTokens) => ({
  access_token: issued.accessToken,
  token_type: 'Bearer' as const,
  expires_in: issued.expiresIn,
  refresh_token: issued.refreshToken,
  scope: issued.scope,
});

export const tokenRoutes: FastifyPluginAsync<TokenRoutesOptions> = async (
  instance,
  { tokens, clients, physicalDevice, sessions },
) => {
  await instance.register(formbody);
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    // Host and version problems are not OAuth errors: they keep the API's error body.
    const known = knownApiError(error);
    if (known && (known.statusCode === 404 || known.statusCode === 406))
      return sendError(reply, known);
    if (error.validation || known || (error.statusCode ?? 500) < 500) {
      return sendOAuthError(reply, invalidRequest(`The request is not valid: ${error.message}`));
    }
    request.log.error({ err: error }, 'token endpoint failed');
    return sendOAuthError(reply, oauthErrors.serverError());
  });

  app.post(
    '/oauth/token',
    {
      schema: {
        tags,
        summary: 'Issue an access or identity token (client credentials)',
        description:
          'Authenticate the app with HTTP Basic (ApplicationId:ApplicationSecret) or with client_id and client_secret.',
        consumes: [FORM],
        body: TokenRequest,
        response: {
          200: TokenResponse,
          400: OAuthErrorBody,
          401: OAuthErrorBody,
          429: OAuthErrorBody,
        },
      },
    },
    async (request, reply) => {
      requireForm(request);
      const body = request.body;
      if (body.grant_type === 'authorization_code') {
        const clientId = publicClient(request, body);
        const issued = await sessions.exchangeCode(request.tenant, {
          clientId,
          code: required(body.code, 'code'),
          redirectUri: required(body.redirect_uri, 'redirect_uri'),
          codeVerifier: required(body.code_verifier, 'code_verifier'),
        });
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        return sessionAnswer(issued);
      }
      if (body.grant_type === 'refresh_token') {
        const clientId = publicClient(request, body);
        const issued = await sessions.refresh(request.tenant, {
          clientId,
          refreshToken: required(body.refresh_token, 'refresh_token'),
        });
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        return sessionAnswer(issued);
      }
      if (body.grant_type !== 'client_credentials') {
        throw oauthErrors.unsupportedGrantType();
      }
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
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return {
        access_token: issued.accessToken,
        token_type: 'Bearer' as const,
        expires_in: issued.expiresIn,
        scope: issued.scope,
      };
    },
  );

  app.post(
    '/oauth/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a token (RFC 7009)',
        description:
          'The client revokes a token issued to it. Unknown or invalid tokens are answered 200 as well.',
        consumes: [FORM],
        body: RevokeRequest,
        response: {
          200: Type.String({
            maxLength: 0,
            description: 'Revoked, or the token was not valid anyway (empty body)',
          }),
          400: OAuthErrorBody,
          401: OAuthErrorBody,
          429: OAuthErrorBody,
        },
      },
    },
    async (request, reply) => {
      requireForm(request);
      const body = request.body;
      if (
        body.client_id === CONSOLE_CLIENT_ID &&
        body.client_secret === undefined &&
        request.headers.authorization === undefined
      ) {
        await revokeMemberSession(request.tenant, body.token);
        return reply.code(200).header('Cache-Control', 'no-store').send('');
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
        if (error instanceof InvalidTokenError) return reply.code(200).send('');
        throw error;
      }
      if (claims.sub !== client.id) {
        throw oauthErrors.notYourToken();
      }
      await tokens.revoke(request.tenant.id, claims);
      return reply.code(200).send('');
    },
  );

  /** Sign-out: a refresh token, or an access token, of a member's session (RFC 7009 §2.2: a
   * token that is none of this client's is answered 200 all the same). */
  async function revokeMemberSession(
    tenant: { id: number; baseUrl: string },
    token: string,
  ): Promise<void> {
    if (!token.includes('.')) {
      await sessions.revoke(tenant.id, { token, clientId: CONSOLE_CLIENT_ID });
      return;
    }
    let claims;
    try {
      claims = await tokens.verifySignature(token, tenant.baseUrl, { allowExpired: true });
    } catch (error) {
      if (error instanceof InvalidTokenError) return;
      throw error;
    }
    if (claims.client_id !== CONSOLE_CLIENT_ID) throw oauthErrors.notYourToken();
    const found = await sessions.revoke(tenant.id, {
      token,
      clientId: CONSOLE_CLIENT_ID,
      accessJti: claims.jti!,
    });
    // An access token whose session is gone already is still revoked by itself.
    if (!found) await tokens.revoke(tenant.id, claims);
  }

  app.get(
    '/.well-known/oauth-authorization-server',
    { schema: { tags, summary: 'Authorization server metadata (RFC 8414)' } },
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
        scopes_supported: ALL_SCOPES,
      };
    },
  );

  app.get(
    '/.well-known/jwks.json',
    { schema: { tags, summary: 'Public keys that verify this server’s tokens (JWKS)' } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return tokens.keys.jwks();
    },
  );
};
