// Browser sign-in: OAuth 2.0 authorization code with PKCE (S256) against this tenant's own
// /oauth/authorize and /oauth/token, as the public client `console`. The tokens live in
// sessionStorage: they end with the tab, and no other site can read them.
import { createManagementClient, type paths } from '@omnichannel/management-client';

/** Where the console is served (console/vite.config.ts base): its pages are paths under it. */
export const CONSOLE_BASE = '/console/';
const CLIENT_ID = 'console';
const SESSION_KEY = 'console.session';
const PENDING_KEY = 'console.signin';

export interface Session {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
  scope: string;
}

interface PendingSignIn {
  state: string;
  verifier: string;
  returnTo: string;
}

type TokenOperation = paths['/oauth/token']['post'];
type TokenForm = TokenOperation['requestBody']['content']['application/x-www-form-urlencoded'];
type TokenAnswer = TokenOperation['responses'][200]['content']['application/json'];

/** The token endpoint, called without a token (the console is a public client). */
const oauth = createManagementClient({ baseUrl: location.origin });
const FORM = {
  bodySerializer: (body: Record<string, string>) => new URLSearchParams(body).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
};

export const redirectUri = () => `${location.origin}/console/callback`;

function base64Url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomText = (bytes = 32) => base64Url(crypto.getRandomValues(new Uint8Array(bytes)));

async function challengeOf(verifier: string): Promise<string> {
  if (!crypto.subtle) {
    throw new Error('The console needs a secure origin (https, or a localhost host) to sign in.');
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export function currentSession(): Session | undefined {
  const stored = sessionStorage.getItem(SESSION_KEY);
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as Session;
  } catch {
    return undefined;
  }
}

function keep(answer: TokenAnswer, previous?: Session): Session {
  const session: Session = {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: Date.now() + answer.expires_in * 1000,
    scope: answer.scope ?? previous?.scope ?? '',
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  return session;
}

/** Leaves for the sign-in page; comes back to `returnTo` (a console path) afterwards. */
export async function startSignIn(returnTo = location.pathname + location.search): Promise<never> {
  const pending: PendingSignIn = { state: randomText(16), verifier: randomText(48), returnTo };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
  });
  location.assign(`/oauth/authorize?${query}`);
  return new Promise<never>(() => {});
}

async function tokenRequest(form: TokenForm): Promise<TokenAnswer> {
  const { data, error, response } = await oauth.POST('/oauth/token', {
    body: { client_id: CLIENT_ID, ...form },
    ...FORM,
  });
  if (data) return data;
  // The token endpoint's refusals are RFC 6749 bodies; other failures, the contract's error body.
  const reason =
    error && 'error' in error
      ? (error.error_description ?? error.error)
      : error?.FriendlyDescription;
  throw new Error(reason ?? `Sign-in failed (${response.status})`);
}

/**
 * On /console/callback: checks the state, trades the code for tokens and answers the path to
 * go back to. Anything else in the URL (an error from the sign-in page) is thrown.
 */
export async function finishSignIn(params: URLSearchParams): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as PendingSignIn | null;
  sessionStorage.removeItem(PENDING_KEY);
  const error = params.get('error');
  if (error) throw new Error(params.get('error_description') ?? error);
  const code = params.get('code');
  if (!pending || !code || params.get('state') !== pending.state) {
    throw new Error('This sign-in answer does not belong to this tab; sign in again.');
  }
  keep(
    await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      code_verifier: pending.verifier,
    }),
  );
  return pending.returnTo.startsWith('/console') ? pending.returnTo : '/console/';
}

let refreshing: Promise<Session | undefined> | undefined;

/** A new access token from the refresh token (one request however many callers wait). */
export function refreshSession(): Promise<Session | undefined> {
  refreshing ??= (async () => {
    const session = currentSession();
    if (!session?.refreshToken) return undefined;
    try {
      return keep(
        await tokenRequest({ grant_type: 'refresh_token', refresh_token: session.refreshToken }),
        session,
      );
    } catch {
      sessionStorage.removeItem(SESSION_KEY);
      return undefined;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/** Revokes the session (the server ends the refresh token's whole family with its access
 * tokens) and forgets it. */
export async function signOut(): Promise<void> {
  const session = currentSession();
  sessionStorage.removeItem(SESSION_KEY);
  const token = session?.refreshToken ?? session?.accessToken;
  if (!token) return;
  await oauth
    .POST('/oauth/revoke', { body: { token, client_id: CLIENT_ID }, ...FORM })
    .catch(() => undefined);
}

/** The claims of the access token (no check: the API checks it; the page only reads names). */
export function tokenClaims(session: Session): Record<string, unknown> {
  try {
    const payload = session.accessToken.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}
