// The authorization request checked (RFC 6749 §4.1.1, PKCE S256): errors before the client and
// its redirect URI are known good are shown on a page (PageError); after, they go back to the
// client (RedirectError, RFC 6749 §4.1.2.1).
import type { AuthorizeRequest } from './authorize-schemas.ts';
import { CONSOLE_CLIENT_ID, isConsoleRedirectUri, isS256Challenge } from './console-client.ts';

const MAX_STATE_LENGTH = 1024;

export class PageError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export class RedirectError extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

/**
 * The request, checked: PageError before the redirect URI is trusted, RedirectError after.
 * `repeated` names the request's parameters given more than once (RFC 6749 §3.1: never allowed);
 * a repeated client_id or redirect_uri cannot be trusted, any other is invalid_request.
 */
export function checkedRequest(
  baseUrl: string,
  query: AuthorizeRequest,
  repeated: ReadonlySet<string> = new Set(),
): { redirectUri: string; codeChallenge: string; state: string | undefined } {
  for (const name of ['client_id', 'redirect_uri'])
    if (repeated.has(name)) throw new PageError(400, `${name} is given more than once.`);
  if (query.client_id !== CONSOLE_CLIENT_ID)
    throw new PageError(
      400,
      `Unknown client "${query.client_id ?? ''}": only "console" signs in here.`,
    );
  if (!query.redirect_uri || !isConsoleRedirectUri(baseUrl, query.redirect_uri))
    throw new PageError(400, 'redirect_uri is not one of the console’s registered addresses.');
  if (repeated.size > 0)
    throw new RedirectError(
      'invalid_request',
      `${[...repeated].sort().join(', ')} given more than once.`,
    );
  // A parameter sent without a value is as if omitted (RFC 6749 §3.1).
  if (!query.response_type)
    throw new RedirectError('invalid_request', 'response_type is required (response_type=code).');
  if (query.response_type !== 'code')
    throw new RedirectError('unsupported_response_type', 'Only response_type=code is supported.');
  if (query.state !== undefined && query.state.length > MAX_STATE_LENGTH)
    throw new RedirectError(
      'invalid_request',
      `state is longer than ${MAX_STATE_LENGTH} characters.`,
    );
  if (query.code_challenge_method !== 'S256')
    throw new RedirectError(
      'invalid_request',
      'PKCE is required with code_challenge_method=S256 ("plain" is not accepted).',
    );
  if (!query.code_challenge || !isS256Challenge(query.code_challenge))
    throw new RedirectError(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code verifier (43 characters).',
    );
  return {
    redirectUri: query.redirect_uri,
    codeChallenge: query.code_challenge,
    state: query.state,
  };
}
