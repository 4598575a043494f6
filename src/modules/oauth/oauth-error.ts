// RFC 6749 §5.2 errors of the token and revocation endpoints: {error, error_description}.
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
