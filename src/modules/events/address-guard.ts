// SSRF protection for webhook deliveries: a subscription's host is resolved when a delivery is
// sent, and the connection goes only to an address checked here (the checked address is the one
// connected to, so a DNS answer cannot change between the check and the connection).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to all its addresses (node:dns's lookup by default; tests inject one). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * Whether an address is a public unicast one. Loopback, private (RFC 1918, unique local),
 * link-local (169.254/16, where cloud metadata services answer, and fe80::/10), carrier-grade
 * NAT, multicast, unspecified and reserved ranges are not; an IPv4 address mapped into IPv6 is
 * judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/** A URL's host without IPv6 brackets, lower-cased, as the allow-list is written. */
export function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/**
 * The one address a delivery to `host` may connect to: the first the resolver gives, when every
 * address the name has is public, or any address when the host is allow-listed.
 */
export async function checkedAddress(
  host: string,
  allowedHosts: readonly string[],
  resolve: Resolver,
): Promise<LookupAddress> {
  const allowed = allowedHosts.includes(host);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new AddressRefused(`${host} has no address`);
  if (!allowed) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new AddressRefused(
        `${host} resolves to ${refused.address}, which is not a public address (loopback, private, link-local and metadata addresses are refused unless the host is in WEBHOOK_ALLOWED_HOSTS)`,
      );
  }
  return addresses[0]!;
}
