// Readers of environment variables, shared by the settings of the server and of the modules: each
// trims the value, treats an empty one as unset, and throws a ConfigError naming the variable when
// the value does not fit.
import { isIP } from 'node:net';
import { ConfigError } from './config-error.ts';
import { severalHostsOf } from '../db/failover/primary-hosts.ts';

const HOST_NAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The environment variables (process.env, or a test's). */
export type Env = Record<string, string | undefined>;

export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

export function hostName(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  if (!HOST_NAME_PATTERN.test(raw)) throw new ConfigError(name, 'must be a DNS host name', raw);
  return raw.toLowerCase();
}

export function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}`, raw);
  }
  return raw as T;
}

export function postgresUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  // Several hosts (`h1:5432,h2:5433`, a failover pair) are libpq's form, not a WHATWG URL's:
  // checked as the URL of the first of them, with every host's port checked too.
  let oneHost: string;
  try {
    oneHost = severalHostsOf(raw)?.oneHostUrl ?? raw;
  } catch (error) {
    throw new ConfigError(name, `names a host badly: ${(error as Error).message}`, raw);
  }
  let url: URL;
  try {
    url = new URL(oneHost);
  } catch {
    throw new ConfigError(name, 'must be a postgres:// URL', raw);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, 'must be a postgres:// URL', raw);
  }
  return raw;
}

/** A comma-separated list of origins (scheme://host[:port]), or '*' for any origin. */
export function origins(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  if (raw === '*') return ['*'];
  return raw.split(',').map((entry) => {
    const text = entry.trim();
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.origin !== text.replace(/\/$/, '')
    )
      throw new ConfigError(
        name,
        "must be '*' or a comma-separated list of origins like https://shop.example.com",
        raw,
      );
    return url.origin;
  });
}

/**
 * `host:port` entries, comma-separated: `127.0.0.1:9000,[::1]:9000,hooks.internal:8443`, each
 * normalised as the URL parser writes a host (so that it compares with a URL's host and port).
 * An entry without a port is refused: a host alone would open every port of it.
 */
export function hostPortList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const usage =
    'must be a comma-separated list of host:port entries (an IPv6 address in brackets), like 127.0.0.1:9000,[::1]:9000,hooks.internal:8443';
  return raw.split(',').map((entry) => {
    const text = entry.trim();
    const match = /^(\[[^\]]*\]|[^:[\]]*):(\d{1,5})$/.exec(text);
    if (!match) {
      const bare = text.replace(/^\[(.*)\]$/, '$1');
      if (text !== '' && (HOST_NAME_PATTERN.test(bare) || isIP(bare)))
        throw new ConfigError(
          name,
          `${usage}; ${JSON.stringify(text)} has no port: add the port its receiver listens on (an entry without one would allow every port of that host, its database and cache included)`,
          raw,
        );
      throw new ConfigError(name, usage, raw);
    }
    const [, host = '', portText = ''] = match;
    const port = Number(portText);
    const ipv6 = host.startsWith('[');
    const bare = ipv6 ? host.slice(1, -1) : host;
    const valid = ipv6 ? isIP(bare) === 6 : isIP(bare) === 4 || HOST_NAME_PATTERN.test(bare);
    if (!valid || port < 1 || port > 65_535) throw new ConfigError(name, usage, raw);
    try {
      return `${new URL(`http://${host}/`).hostname}:${port}`;
    } catch {
      throw new ConfigError(name, usage, raw);
    }
  });
}

/** '*' or IP addresses/CIDR ranges, comma-separated. */
export function addressList(env: Env, name: string, fallback: string): string[] | '*' {
  const value = read(env, name) ?? fallback;
  if (value.trim() === '*') return '*';
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => !PROXY_ADDRESS.test(part)))
    throw new ConfigError(name, "must be '*' or IP addresses/CIDR ranges, comma-separated", value);
  return list;
}

// Fastify's trustProxy: true, a hop count, or addresses/CIDRs (proxy-addr checks each).
const PROXY_ADDRESS = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
export function trustProxy(env: Env, name: string): boolean | number | string[] {
  const value = read(env, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => !PROXY_ADDRESS.test(part)))
    throw new ConfigError(
      name,
      'must be true, false, a hop count, or IP addresses/CIDR ranges',
      value,
    );
  return list;
}

/** A URL of one of the given schemes (say `smtp:`), or undefined when the variable is unset. */
export function urlOf(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  try {
    if (schemes.includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  const names = schemes.map((scheme) => `${scheme}//`).join(' or ');
  throw new ConfigError(name, `must be an ${names} URL`, raw);
}
