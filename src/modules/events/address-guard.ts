// SSRF protection for webhook deliveries: a subscription's host is resolved when a delivery is
// sent, and the connection goes only to an address checked here (the checked address is the one
// connected to, so a DNS answer cannot change between the check and the connection).
// WEBHOOK_ALLOWED_HOSTS names receivers by host AND port: an allow-listed host is reachable on its
// listed ports only, never on the others (its database, its cache).
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

/** The last 32 bits of an IPv6 address, as the IPv4 address they spell. */
function lastIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

/**
 * The IPv4 address an IPv6 address carries and is judged as: IPv4-mapped (::ffff:0:0/96),
 * IPv4-compatible (the deprecated ::/96, e.g. ::127.0.0.1 = ::7f00:1) and NAT64 of the
 * well-known prefix (64:ff9b::/96, which a translator turns into that IPv4 address).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && parts[5] === 0xffff) return lastIPv4(address);
  if (zeros(0, 6)) return lastIPv4(address);
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6)) return lastIPv4(address);
  return undefined;
}

/**
 * Whether an address is a public unicast one. Loopback, private (RFC 1918, unique local),
 * link-local (169.254/16, where cloud metadata services answer, and fe80::/10), carrier-grade
 * NAT, multicast, unspecified and reserved ranges are not. An IPv6 address that carries an IPv4
 * address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96) is judged as that IPv4 address;
 * the other translation and tunnel ranges (NAT64 local-use 64:ff9b:1::/48, 6to4 2002::/16,
 * Teredo 2001::/32, IPv4-translated ::ffff:0:0:0/96) are never public, whatever they carry.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address) || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  return carried ? carried.range() === 'unicast' : v6.range() === 'unicast';
}

/** The port a URL connects to: the one written, else its scheme's default. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * A URL's `host:port` as WEBHOOK_ALLOWED_HOSTS writes it: the host as the URL parser writes it
 * (lower case, IPv6 compressed and in brackets) and the port the URL connects to. An IPv6 form
 * carrying an IPv4 address keeps its IPv6 form: `[::127.0.0.1]:9000` is `[::7f00:1]:9000`, not
 * `127.0.0.1:9000`.
 */
export function allowListKey(url: URL): string {
  return `${url.hostname}:${portOf(url)}`;
}

/** Whether the URL's exact host and port are in the allow-list. */
export function isAllowListed(url: URL, allowedHosts: readonly string[]): boolean {
  return allowedHosts.includes(allowListKey(url));
}

/** The ports the allow-list gives the URL's host (none when the host is not in it). */
export function allowedPortsOf(url: URL, allowedHosts: readonly string[]): number[] {
  const prefix = `${url.hostname}:`;
  return allowedHosts
    .filter((entry) => entry.startsWith(prefix) && /^\d+$/.test(entry.slice(prefix.length)))
    .map((entry) => Number(entry.slice(prefix.length)));
}

/** A URL's host without IPv6 brackets, as DNS and address checks take it. */
export function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * A delivery refused before any connection. Its message is the tenant's (the delivery's
 * LastError): it names the host the tenant wrote, never an address the server resolved, which
 * would tell a tenant the private addresses of the operator's internal names. The operator's log
 * gets `host` and `address` (webhook-sender.ts).
 */
export class AddressRefused extends Error {
  readonly host: string;
  /** The refused address the host resolved to; undefined when it has none. */
  readonly address: string | undefined;

  constructor(message: string, host: string, address?: string) {
    super(message);
    this.name = 'AddressRefused';
    this.host = host;
    this.address = address;
  }
}

/**
 * The one address a delivery to `url` may connect to: the first the resolver gives, when every
 * address the name has is public, or any address when the URL's host and port are allow-listed.
 */
export async function checkedAddress(
  url: URL,
  allowedHosts: readonly string[],
  resolve: Resolver,
): Promise<LookupAddress> {
  const host = bareHost(url);
  const allowed = isAllowListed(url, allowedHosts);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new AddressRefused(`${host} has no address`, host);
  if (!allowed) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new AddressRefused(
        `${host} resolves to a non-public address (loopback, private, link-local and metadata addresses are refused unless the host and port, ${allowListKey(url)}, are in WEBHOOK_ALLOWED_HOSTS)`,
        host,
        refused.address,
      );
  }
  return addresses[0]!;
}

/**
 * Whether a failed delivery's LastError may quote the receiver's reply body: only for a receiver
 * whose host is not in the allow-list (on any port) and that was reached at a public address: a
 * public receiver, whose integrators are helped by seeing its answer. An allow-listed receiver is
 * an internal service: its reply is never shown to the tenant, only its status.
 */
export function showsReplyBody(
  url: URL,
  allowedHosts: readonly string[],
  address: string,
): boolean {
  return allowedPortsOf(url, allowedHosts).length === 0 && isPublicAddress(address);
}
