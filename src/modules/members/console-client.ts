// The console: a public OAuth client (no secret, RFC 6749 §2.1) that exists implicitly on every
// tenant. It signs members in with the authorization code grant and PKCE, and may only be sent
// back to the console's own pages on the tenant's host (exact match).
import { createHash, timingSafeEqual } from 'node:crypto';

export const CONSOLE_CLIENT_ID = 'console';

export function consoleRedirectUris(tenantBaseUrl: string): string[] {
  return [`${tenantBaseUrl}/console/`, `${tenantBaseUrl}/console/callback`];
}

export function isConsoleRedirectUri(tenantBaseUrl: string, uri: string): boolean {
  return consoleRedirectUris(tenantBaseUrl).includes(uri);
}

// RFC 7636 §4.1 and §4.2: a verifier is 43..128 unreserved characters; an S256 challenge is the
// base64url SHA-256 of one, 43 characters.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function isCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** Whether the verifier is the one the challenge was made from (S256). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
