// Request and response schemas of the token and revocation endpoints (RFC 6749, RFC 7009).
import { documentedEnum } from '../../http/documented-only.ts';
import { Type, type Static } from 'typebox';
import type { OpenApiTag } from '../../http/openapi-operations.ts';

export const oauthTag: OpenApiTag = {
  name: 'OAuth',
  description:
    'The authorization server: tokens for apps (client credentials) and the console, ' +
    'revocation, its metadata (RFC 8414) and the keys that verify its tokens. Errors use the ' +
    "RFC 6749 body ({error, error_description}), not the API's.",
};
export const tags = [oauthTag.name];
/**
 * The token, revocation and introspection endpoints authenticate the client, not a bearer: an
 * app by HTTP Basic (or client_id and client_secret in the form), a public client (the console)
 * by client_id alone.
 */
export const CLIENT_AUTHENTICATION: Record<string, string[]>[] = [{ appCredentials: [] }, {}];
export const FORM = 'application/x-www-form-urlencoded';

/**
 * The largest body the token, revocation and introspection endpoints read: their forms are a
 * few fields, the longest a token of about 1 KB. Anyone may call them without credentials, so
 * they read no more than that (issue 52); the API's JSON routes take 1 MiB.
 */
export const FORM_BODY_LIMIT_BYTES = 8 * 1024;

export const TokenRequest = Type.Object(
  {
    grant_type: Type.String({
      description:
        'client_credentials (apps), authorization_code or refresh_token (the console, client_id=console, no secret); 400 unsupported_grant_type otherwise.',
      ...documentedEnum(['client_credentials', 'authorization_code', 'refresh_token']),
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

export type TokenRequestBody = Static<typeof TokenRequest>;

export const TokenResponse = Type.Object(
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

export type TokenAnswer = Static<typeof TokenResponse>;

export const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { title: 'OAuthError', description: 'RFC 6749 §5.2 error body' },
);

/** The RFC 6749 §5.2 error body, described for one status of one endpoint. */
export const oauthErrorAnswer = (description: string) =>
  Type.Object(OAuthErrorBody.properties, { title: 'OAuthError', description });

/** The answers to a body these endpoints do not read: too large, or not a form. */
export const formBodyAnswers = () => ({
  413: oauthErrorAnswer(
    `invalid_request: the body is larger than ${FORM_BODY_LIMIT_BYTES} bytes (not read)`,
  ),
  415: oauthErrorAnswer(
    'invalid_request: the body is not application/x-www-form-urlencoded (application/json included; not read)',
  ),
});

export const RevokeRequest = Type.Object(
  {
    token: Type.String(),
    token_type_hint: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'RevokeRequest' },
);

export const IntrospectRequest = Type.Object(
  {
    token: Type.String({ description: 'The access token to look at.' }),
    token_type_hint: Type.Optional(
      Type.String({
        description:
          'access_token or refresh_token (RFC 7662 §2.1); a hint only: every token is looked up the same way.',
      }),
    ),
    client_id: Type.Optional(
      Type.String({ description: 'With client_secret, instead of HTTP Basic.' }),
    ),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'IntrospectRequest' },
);

// RFC 7662 §2.2: only `active` when the token is not active, else the token's facts.
export const IntrospectResponse = Type.Object(
  {
    active: Type.Boolean({
      description:
        'Whether the token is valid on this tenant now: issued here, not expired, not revoked, its app, secret, member and device unchanged.',
    }),
    scope: Type.Optional(Type.String({ description: 'Space-separated scopes.' })),
    client_id: Type.Optional(
      Type.String({
        description: 'The app the token was issued to (ApplicationId), or "console".',
      }),
    ),
    username: Type.Optional(Type.String({ description: "A member's token: the username." })),
    token_type: Type.Optional(Type.Literal('Bearer')),
    exp: Type.Optional(Type.Integer({ description: 'Expiry, seconds since 1970.' })),
    iat: Type.Optional(Type.Integer({ description: 'Issue time, seconds since 1970.' })),
    sub: Type.Optional(
      Type.String({ description: "The app's ApplicationId, or the member's id." }),
    ),
    aud: Type.Optional(Type.String({ description: "The tenant's base URL." })),
    iss: Type.Optional(Type.String({ description: "The tenant's base URL." })),
    jti: Type.Optional(Type.String({ description: 'The token’s id.' })),
    dev: Type.Optional(
      Type.String({
        description: 'An identity token: the physical device it is bound to (DeviceId).',
      }),
    ),
  },
  {
    title: 'IntrospectResponse',
    description:
      'The token’s state (RFC 7662 §2.2): `{"active": false}` alone, or `active: true` with the token’s facts',
    additionalProperties: false,
  },
);

export type IntrospectAnswer = Static<typeof IntrospectResponse>;
