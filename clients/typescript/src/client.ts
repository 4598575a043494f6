// The client: openapi-fetch over the generated types, with the API's versioned Accept header,
// bearer tokens and retries of the calls that are safe to send again.
import createClient, { type Client } from 'openapi-fetch';
import { authorizingFetch, tokenSource, type Authentication } from './auth.ts';
import type { paths } from './generated/openapi.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';

/** The API version this client was generated for (contract §2). */
export const ACCEPT = 'application/vnd.xomni.api-v4-0';

export type ManagementClient = Client<paths>;

export interface ManagementClientOptions {
  /** The tenant's base URL: `https://acme.api.example.com` (a tenant is addressed by host). */
  baseUrl: string;
  /** Client credentials (a token is fetched, cached and renewed), or a bearer token; none: anonymous calls only. */
  auth?: Authentication;
  /** Retries of idempotent calls and of keyed writes (default: 3 attempts); false: none. */
  retry?: RetryOptions | false;
  /** Give every POST and PATCH an Idempotency-Key of its own when the call sets none (default true). */
  idempotencyKeys?: boolean;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createManagementClient(options: ManagementClientOptions): ManagementClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retried = retryingFetch(send, {
    ...(options.retry === false ? { attempts: 1 } : options.retry),
    idempotencyKeys: options.idempotencyKeys ?? true,
  });
  const fetch = options.auth
    ? authorizingFetch(retried, tokenSource(options.auth, baseUrl, retried, ACCEPT))
    : retried;
  return createClient<paths>({ baseUrl, fetch, headers: { Accept: ACCEPT } });
}
