// The oauth module's errors. The token and revocation endpoints answer RFC 6749 §5.2 bodies
// ({error, error_description}); the apps API answers the contract's error body.
import { conflict, notFound } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export const invalidRequest = (description: string) =>
  new OAuthError(400, 'invalid_request', description);

/** The oauth module's error codes: RFC 6749 errors of the token endpoint, and the apps API's. */
export const oauthErrors = {
  notBasicAuthentication: () =>
    new OAuthError(
      401,
      'invalid_client',
      'The Authorization header is not HTTP Basic client authentication.',
      { 'WWW-Authenticate': 'Basic realm="oauth"' },
    ),
  clientAuthenticationRequired: () =>
    new OAuthError(
      401,
      'invalid_client',
      'Client authentication is required (HTTP Basic or client_id and client_secret).',
      { 'WWW-Authenticate': 'Basic realm="oauth"' },
    ),
  serverError: () =>
    new OAuthError(500, 'server_error', 'The server failed to handle this request.'),
  unsupportedGrantType: () =>
    new OAuthError(
      400,
      'unsupported_grant_type',
      'grant_type must be client_credentials, authorization_code or refresh_token.',
    ),
  unknownPublicClient: (clientId: string | undefined) =>
    new OAuthError(
      401,
      'invalid_client',
      `Unknown public client "${clientId ?? ''}": only client_id=console uses this grant without a secret.`,
    ),
  invalidScope: (allowed: readonly string[]) =>
    new OAuthError(400, 'invalid_scope', `This app may ask for: ${allowed.join(' ')}.`),
  noIdentityTokens: () =>
    new OAuthError(
      400,
      'unauthorized_client',
      'Only Consumer (1) and Device (4) apps may ask for identity tokens.',
    ),
  /** A public client's grant was refused (public-client-grant.ts). */
  invalidGrant: (description: string) => new OAuthError(400, 'invalid_grant', description),
  unknownPhysicalDevice: (id: string) =>
    new OAuthError(400, 'invalid_grant', `No physical device "${id}" is registered.`),
  notYourToken: () =>
    new OAuthError(400, 'unauthorized_client', 'The token was not issued to this client.'),
  invalidClient: (challenge: boolean) =>
    new OAuthError(
      401,
      'invalid_client',
      'Client authentication failed: unknown client or wrong secret.',
      challenge ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {},
    ),
  slowDown: (retryAfterSeconds: number) =>
    new OAuthError(429, 'slow_down', 'Too many failed client authentications; try again later.', {
      'Retry-After': String(Math.max(1, retryAfterSeconds)),
    }),

  appNotFound: (id: string) => notFound(`App ${id}`),
  predefinedAppType: () =>
    conflict('PredefinedAppType', 'The type of a predefined app cannot be changed.'),
  predefinedApp: () => conflict('PredefinedApp', 'A predefined app cannot be deleted.'),
};

/** The codes the oauth module answers besides the shared ones (src/http/error-codes.ts). */
export const oauthErrorCodes = {
  PredefinedApp: { status: 409, meaning: 'A predefined app cannot be deleted.' },
  PredefinedAppType: { status: 409, meaning: 'The type of a predefined app cannot be changed.' },
} as const satisfies ErrorCodes;
