// Environment → typed, validated configuration (contract §6). A bad value stops the process
// with one line naming the variable, so operators never chase a half-started server.

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
  integrationHost: string;
  provisioningDelaySeconds: number;
  /** Scheme and port that clients use to reach this server; they make each tenant's base URL. */
  publicScheme: 'http' | 'https';
  publicPort: number;
  jsonBodyLimitBytes: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, expectation: string, value: string) {
    super(`Invalid configuration: ${variable} ${expectation} (got ${JSON.stringify(value)})`);
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
  return {
    port,
    host,
    apiHost,
    defaultTenant,
    dataDir: read(env, 'DATA_DIR') ?? './data',
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 60, 86_400),
    integrationHost: hostName(env, 'INTEGRATION_HOST', `integration.${apiHost}`),
    provisioningDelaySeconds: integer(env, 'PROVISIONING_DELAY_SECONDS', 0, 0, 86_400),
    publicScheme: oneOf(env, 'PUBLIC_SCHEME', ['http', 'https'] as const, 'http'),
    publicPort: integer(env, 'PUBLIC_PORT', port, 1, 65535),
    jsonBodyLimitBytes: integer(env, 'JSON_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
  };
}
