// Request and response schemas of the token and revocation endpoints (RFC 6749, RFC 7009).
import { Type, type Static } from 'typebox';

export const tags = ['OAuth'];
export const FORM = 'application/x-www-form-urlencoded';

export const TokenRequest = Type.Object(
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

export const RevokeRequest = Type.Object(
  {
    token: Type.String(),
    token_type_hint: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
  },
  { title: 'RevokeRequest' },
);
