// The URLs clients use to reach this server: behind a TLS proxy the scheme and port differ from
// what the process listens on (PUBLIC_SCHEME, PUBLIC_PORT).
import type { Config } from '../config.ts';

export interface PublicUrls {
  /** The URL of a host of this server, as clients reach it. */
  of(host: string): string;
  /** A tenant's base URL: the `iss` and `aud` of its tokens. */
  tenantBaseUrl(tenantName: string): string;
}

export function publicUrls(
  config: Pick<Config, 'publicScheme' | 'publicPort' | 'apiHost'>,
): PublicUrls {
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  const port = config.publicPort === defaultPort ? '' : `:${config.publicPort}`;
  const of = (host: string) => `${config.publicScheme}://${host}${port}`;
  return { of, tenantBaseUrl: (name) => of(`${name}.${config.apiHost}`) };
}
