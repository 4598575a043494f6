// The answers of the discovery routes: RFC 8414 authorization server metadata and the JWKS
// (RFC 7517) of the keys that sign this server's tokens.
import { Type } from 'typebox';

const Url = (description: string) => Type.String({ format: 'uri', description });
const Names = (description: string) => Type.Array(Type.String(), { description });

export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Url("The tenant's base URL: every token's iss and aud."),
    authorization_endpoint: Url('The sign-in of the authorization code flow (the console).'),
    token_endpoint: Url('POST /oauth/token'),
    revocation_endpoint: Url('POST /oauth/revoke'),
    jwks_uri: Url('GET /.well-known/jwks.json'),
    introspection_endpoint: Url('POST /oauth/introspect'),
    grant_types_supported: Names('client_credentials, authorization_code, refresh_token'),
    response_types_supported: Names('code'),
    response_modes_supported: Names('query'),
    code_challenge_methods_supported: Names('S256'),
    token_endpoint_auth_methods_supported: Names(
      'client_secret_basic, client_secret_post, none (the console)',
    ),
    revocation_endpoint_auth_methods_supported: Names(
      'client_secret_basic, client_secret_post, none (the console)',
    ),
    introspection_endpoint_auth_methods_supported: Names(
      'client_secret_basic, client_secret_post (apps only)',
    ),
    scopes_supported: Names('public, private, management'),
  },
  { title: 'AuthorizationServerMetadata' },
);

/** A public key that verifies tokens (an EC P-256 key for ES256). */
const Jwk = Type.Object(
  {
    kty: Type.Literal('EC'),
    crv: Type.Literal('P-256'),
    x: Type.String({ description: 'base64url' }),
    y: Type.String({ description: 'base64url' }),
    kid: Type.String({ description: "Names the key in a token's header." }),
    alg: Type.Literal('ES256'),
    use: Type.Literal('sig'),
  },
  { title: 'Jwk' },
);

export const Jwks = Type.Object(
  {
    keys: Type.Array(Jwk, {
      description: 'The keys of the tokens still valid (a rotated key stays until they expire).',
    }),
  },
  { title: 'Jwks' },
);
