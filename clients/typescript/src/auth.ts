// Bearer tokens for the client: a given token, or the client credentials grant against the
// tenant's /oauth/token (contract §3), cached and renewed before it expires.
import createClient from 'openapi-fetch';
import { OAuthError } from './errors.ts';
import type { paths } from './generated/openapi.ts';

export interface ClientCredentials {
  /** The app's ApplicationId. */
  clientId: string;
  /** The app's ApplicationSecret. */
  clientSecret: string;
  /** A space-separated subset of the app's scopes (default: all of them). */
  scope?: string;
  /** Asks for an identity token bound to this registered physical device (app types 1 and 4). */
  physicalDeviceId?: string;
}

/** How the client authenticates: client credentials, a token, or a function that returns one. */
export type Authentication =
  ClientCredentials | { token: string | (() => string | Promise<string>) };

export interface TokenSource {
  /** A token valid for a while yet. */
  token(): Promise<string>;
  /** Forgets the token the API refused (revoked, or its app's secret rotated); false if it cannot get another. */
  refused(token: string): boolean;
}

type Fetch = (request: Request) => Promise<Response>;

function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

// A token this close to its expiry is renewed: the call that carries it must still reach the API.
const RENEW_BEFORE_MS = 60_000;

export function tokenSource(
  authentication: Authentication,
  baseUrl: string,
  fetch: Fetch,
  accept: string,
  now: () => number = Date.now,
): TokenSource {
  if ('token' in authentication) {
    const { token } = authentication;
    return {
      token: async () => (typeof token === 'string' ? token : token()),
      refused: () => false,
    };
  }
  const tokens = createClient<paths>({ baseUrl, fetch, headers: { Accept: accept } });
  let current: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const issue = async (): Promise<string> => {
    const { clientId, clientSecret, scope, physicalDeviceId } = authentication;
    const { data, error, response } = await tokens.POST('/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        ...(scope !== undefined ? { scope } : {}),
        ...(physicalDeviceId !== undefined ? { physical_device_id: physicalDeviceId } : {}),
      },
      bodySerializer: (body) => new URLSearchParams(body).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${base64(`${clientId}:${clientSecret}`)}`,
      },
    });
    if (!data) throw new OAuthError(response.status, error);
    const lifetimeMs = data.expires_in * 1000;
    // Renewed a minute before its expiry, or at nine tenths of a shorter lifetime.
    current = {
      token: data.access_token,
      renewAt: now() + lifetimeMs - Math.min(RENEW_BEFORE_MS, lifetimeMs / 10),
    };
    return data.access_token;
  };

  return {
    token: () => {
      if (current && now() < current.renewAt) return Promise.resolve(current.token);
      // Concurrent calls share one token request.
      pending ??= issue().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    refused: (token) => {
      if (current?.token === token) current = undefined;
      return true;
    },
  };
}

/**
 * A fetch that sends the source's token. A refused token (401) is forgotten, and a call without a
 * body is sent once more with a new one; a call with a body is not (re-sending it would mean
 * keeping a copy of every body, uploads and imports included), and the next call gets the new token.
 */
export function authorizingFetch(fetch: Fetch, source: TokenSource): Fetch {
  return async (request) => {
    const token = await source.token();
    const again = request.body === null ? request.clone() : undefined;
    request.headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(request);
    if (response.status !== 401 || !source.refused(token) || !again) return response;
    await response.body?.cancel();
    again.headers.set('Authorization', `Bearer ${await source.token()}`);
    return fetch(again);
  };
}
