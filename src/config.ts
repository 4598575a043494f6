// Environment → typed, validated configuration (contract §6). A bad value stops the process
// with one line naming the variable, so operators never chase a half-started server.
import { isIP } from 'node:net';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  apiHost: string;
  defaultTenant: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: LogLevel;
  tokenTtlSeconds: number;
  /** How long a member's refresh token (browser sign-in) stays usable; each use makes a new one. */
  refreshTokenTtlSeconds: number;
  integrationHost: string;
  provisioningDelaySeconds: number;
  /** How long a provisioning job may run before it is taken to be dead and retried. */
  provisioningTimeoutSeconds: number;
  /** Scheme and port that clients use to reach this server; they make each tenant's base URL. */
  publicScheme: 'http' | 'https';
  publicPort: number;
  jsonBodyLimitBytes: number;
  /** smtp:// or smtps:// URL for notifications; without it they stay in the outbox. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Gateway requests per second by service tier: Developer, Standard, Premium. */
  gatewayRateLimits: [number, number, number];
  jobPollingIntervalSeconds: number;
  jobMaintenanceIntervalSeconds: number;
  /** Runs of one durable job that may end their process before the job is given up (failed). */
  jobCrashLimit: number;
  /** A running job's sign of life: a run silent this long is taken to have ended its process. */
  jobHeartbeatSeconds: number;
  /** Longest record of a catalog import (a JSONL line or a CSV row), in bytes. */
  importMaxRecordBytes: number;
  /** Largest asset upload in bytes (contract §4: 25 MiB). */
  assetMaxBytes: number;
  /**
   * Most ranges (after combining overlapping and adjacent ones) that one request for an asset's
   * bytes may ask for; a Range with more is ignored and the whole asset is served.
   */
  assetMaxRanges: number;
  /** Largest catalog import file in bytes (a body posted to the import route). */
  importMaxBytes: number;
  /**
   * A text search counts its matches exactly, and ranks them all, up to this many; above it the
   * total and the navigation counts are estimated from a sample (docs/api.md, item search).
   */
  searchExactCountLimit: number;
  /** How long a running import or export job holds its lease before another instance may take it over. */
  catalogJobLeaseSeconds: number;
  /** An S3-compatible blob store; without it blobs stay under DATA_DIR/blobs. */
  s3: S3Settings | undefined;
  /**
   * Browser origins allowed to call the API cross-origin (CORS); empty: CORS is off and browsers
   * refuse cross-origin calls. ['*'] allows every origin.
   */
  corsOrigins: string[];
  /** Requests per minute per app, by application type id; a type not listed is not limited. */
  appRateLimits: Record<number, number>;
  /** Redis that every instance shares, for the per-app rate limits; without it they are per process. */
  redisUrl: string | undefined;
  /** How long an Idempotency-Key and its stored answer are kept (24 h by default). */
  idempotencyKeyTtlSeconds: number;
  /**
   * Which proxies in front of the server to believe about the client's address and scheme
   * (X-Forwarded-For, X-Forwarded-Proto): false (none), true (any), a number of hops, or their
   * addresses and CIDR ranges. Sign-in lockouts and client throttling count per address.
   */
  trustProxy: boolean | number | string[];
  /** METRICS_ALLOWED_ADDRESSES: the client addresses/CIDRs /metrics answers; '*' is anyone. */
  metricsAllowedAddresses: string[] | '*';
  /**
   * Webhook receivers, each a host AND a port (`127.0.0.1:9000`, `[::1]:9000`,
   * `hooks.internal:8443`, in the form a parsed URL gives them: lower case, IPv6 compressed in
   * brackets), that may be called over http and may resolve to loopback, private or link-local
   * addresses. Other ports of those hosts are refused.
   */
  webhookAllowedHosts: string[];
  /** How long one webhook delivery may take (connect to end of the answer). */
  webhookTimeoutSeconds: number;
  /** How often an idle webhook dispatcher looks for events and due deliveries. */
  webhookPollingIntervalMs: number;
  /** Webhook deliveries one instance sends at the same time. */
  webhookConcurrency: number;
}

/** Where S3_URL points. The secret is never logged (see s3Url). */
export interface S3Settings {
  /** The service's URL; undefined for AWS itself (s3://…), which the SDK finds from the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** undefined: the SDK's default credential chain (environment, instance role …). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

/** A URL's text with its password replaced, for messages (a config error must not leak it). */
export function withoutPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '***';
    return url.toString();
  } catch {
    // Not a URL the parser reads: hide whatever sits between the first ':' after '//' and an '@'.
    return value.replace(/(\/\/[^/@:]*:)[^/@]*@/, '$1***@');
  }
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, expectation: string, value: string) {
    super(
      `Invalid configuration: ${variable} ${expectation} (got ${JSON.stringify(withoutPassword(value))})`,
    );
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export const TENANT_NAME_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;
const HOST_NAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

function hostName(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  if (!HOST_NAME_PATTERN.test(raw)) throw new ConfigError(name, 'must be a DNS host name', raw);
  return raw.toLowerCase();
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}`, raw);
  }
  return raw as T;
}

function postgresUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a postgres:// URL', raw);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, 'must be a postgres:// URL', raw);
  }
  return raw;
}

/** A comma-separated list of origins (scheme://host[:port]), or '*' for any origin. */
function origins(env: Env, name: string): string[] {
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

/** Comma-separated host names or IP literals (IPv6 with or without brackets), lower-cased. */
/**
 * `host:port` entries, comma-separated: `127.0.0.1:9000,[::1]:9000,hooks.internal:8443`, each
 * normalised as the URL parser writes a host (so that it compares with a URL's host and port).
 * An entry without a port is refused: a host alone would open every port of it.
 */
function hostPortList(env: Env, name: string): string[] {
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

/** `type=requests per minute` pairs, comma-separated: `1=600,4=600`. */
/** '*' or IP addresses/CIDR ranges, comma-separated. */
function addressList(env: Env, name: string, fallback: string): string[] | '*' {
  const value = read(env, name) ?? fallback;
  if (value.trim() === '*') return '*';
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => !PROXY_ADDRESS.test(part)))
    throw new ConfigError(name, "must be '*' or IP addresses/CIDR ranges, comma-separated", value);
  return list;
}

// Fastify's trustProxy: true, a hop count, or addresses/CIDRs (proxy-addr checks each).
const PROXY_ADDRESS = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
function trustProxy(env: Env, name: string): boolean | number | string[] {
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

function appRateLimits(env: Env, name: string): Record<number, number> {
  const raw = read(env, name);
  if (raw === undefined) return {};
  const limits: Record<number, number> = {};
  for (const pair of raw.split(',')) {
    const match = /^\s*([1-4])\s*=\s*(\d{1,9})\s*$/.exec(pair);
    if (!match || Number(match[2]) < 1)
      throw new ConfigError(
        name,
        'must be pairs like 1=600,4=600 (application type 1..4 = requests per minute ≥ 1)',
        raw,
      );
    limits[Number(match[1])] = Number(match[2]);
  }
  return limits;
}

/** A URL of one of the given schemes (say `smtp:`), or undefined when the variable is unset. */
function urlOf(env: Env, name: string, schemes: string[]): string | undefined {
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

function rateLimits(
  env: Env,
  name: string,
  fallback: [number, number, number],
): [number, number, number] {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1)) {
    throw new ConfigError(
      name,
      'must be three positive integers: Developer,Standard,Premium requests per second',
      raw,
    );
  }
  return parts.map(Number) as [number, number, number];
}

const S3_URL_FORMAT =
  'must be http(s)://KEY:SECRET@host[:port]/bucket[?region=…&forcePathStyle=true|false] or s3://KEY:SECRET@bucket[?region=…]';

/** S3_URL, validated; an error shows the URL with its credentials masked. */
function s3Url(env: Env, name: string): S3Settings | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  const fail = (expectation: string) => {
    const masked = url
      ? `${url.protocol}//${url.username || url.password ? '***:***@' : ''}${url.host}${url.pathname}${url.search}`
      : '(unparseable URL)';
    return new ConfigError(name, expectation, masked);
  };
  if (!url || !['http:', 'https:', 's3:'].includes(url.protocol)) throw fail(S3_URL_FORMAT);
  const aws = url.protocol === 's3:';
  const bucket = aws ? url.hostname : url.pathname.replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw fail(
      `${S3_URL_FORMAT}; the bucket name must be 3..63 lowercase letters, digits, dots or hyphens`,
    );
  }
  if (Boolean(url.username) !== Boolean(url.password)) {
    throw fail('must carry both the access key and the secret, or neither');
  }
  for (const key of url.searchParams.keys()) {
    if (key !== 'region' && key !== 'forcePathStyle')
      throw fail(`${S3_URL_FORMAT} (unknown parameter ${key})`);
  }
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') {
    throw fail('forcePathStyle must be true or false');
  }
  return {
    endpoint: aws ? undefined : `${url.protocol}//${url.host}`,
    bucket,
    region: url.searchParams.get('region') ?? 'us-east-1',
    credentials: url.username
      ? {
          accessKeyId: decodeURIComponent(url.username),
          secretAccessKey: decodeURIComponent(url.password),
        }
      : undefined,
    // Path-style addressing works with every S3-compatible server; AWS itself takes either.
    forcePathStyle: pathStyle === null ? !aws : pathStyle === 'true',
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = read(env, 'HOST') ?? '0.0.0.0';
  const apiHost = hostName(env, 'API_HOST', 'localhost');
  const defaultTenant = read(env, 'DEFAULT_TENANT');
  if (defaultTenant !== undefined && !TENANT_NAME_PATTERN.test(defaultTenant)) {
    throw new ConfigError(
      'DEFAULT_TENANT',
      `must match ${TENANT_NAME_PATTERN.source}`,
      defaultTenant,
    );
  }
  const provisioningDelaySeconds = integer(env, 'PROVISIONING_DELAY_SECONDS', 0, 0, 86_400);
  return {
    port,
    host,
    apiHost,
    defaultTenant,
    dataDir: read(env, 'DATA_DIR') ?? './data',
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 60, 86_400),
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 86_400, 300, 2_592_000),
    integrationHost: hostName(env, 'INTEGRATION_HOST', `integration.${apiHost}`),
    provisioningDelaySeconds,
    // Must outlast the delay: a job still waiting it out is alive, not dead.
    provisioningTimeoutSeconds: integer(
      env,
      'PROVISIONING_TIMEOUT_SECONDS',
      provisioningDelaySeconds + 60,
      provisioningDelaySeconds + 1,
      172_800,
    ),
    publicScheme: oneOf(env, 'PUBLIC_SCHEME', ['http', 'https'] as const, 'http'),
    publicPort: integer(env, 'PUBLIC_PORT', port, 1, 65535),
    jsonBodyLimitBytes: integer(env, 'JSON_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    smtpUrl: urlOf(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: read(env, 'SMTP_FROM') ?? `no-reply@${apiHost}`,
    gatewayRateLimits: rateLimits(env, 'GATEWAY_RATE_LIMITS', [10, 100, 1000]),
    jobPollingIntervalSeconds: integer(env, 'JOB_POLLING_INTERVAL_SECONDS', 2, 1, 60),
    jobMaintenanceIntervalSeconds: integer(env, 'JOB_MAINTENANCE_INTERVAL_SECONDS', 30, 1, 3600),
    jobCrashLimit: integer(env, 'JOB_CRASH_LIMIT', 3, 1, 100),
    jobHeartbeatSeconds: integer(env, 'JOB_HEARTBEAT_SECONDS', 15, 1, 3600),
    assetMaxBytes: integer(env, 'ASSET_MAX_BYTES', 26_214_400, 1, 5_368_709_120),
    assetMaxRanges: integer(env, 'ASSET_MAX_RANGES', 16, 1, 1000),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 1_073_741_824, 1, 68_719_476_736),
    searchExactCountLimit: integer(env, 'SEARCH_EXACT_COUNT_LIMIT', 5000, 100, 1_000_000),
    importMaxRecordBytes: integer(env, 'IMPORT_MAX_RECORD_BYTES', 1_048_576, 1024, 67_108_864),
    catalogJobLeaseSeconds: integer(env, 'CATALOG_JOB_LEASE_SECONDS', 30, 2, 3600),
    s3: s3Url(env, 'S3_URL'),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    appRateLimits: appRateLimits(env, 'APP_RATE_LIMITS'),
    redisUrl: urlOf(env, 'REDIS_URL', ['redis:', 'rediss:']),
    idempotencyKeyTtlSeconds: integer(env, 'IDEMPOTENCY_KEY_TTL_SECONDS', 86_400, 1, 2_592_000),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    metricsAllowedAddresses: addressList(env, 'METRICS_ALLOWED_ADDRESSES', '127.0.0.0/8,::1'),
    webhookAllowedHosts: hostPortList(env, 'WEBHOOK_ALLOWED_HOSTS'),
    webhookTimeoutSeconds: integer(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60),
    webhookPollingIntervalMs: integer(env, 'WEBHOOK_POLLING_INTERVAL_MS', 1000, 10, 60_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
  };
}
