// The settings of the process and of the shared layers (src/http, src/db, src/jobs): where it
// listens, its host names and database, its logs, its job queue and its HTTP policies.
import { ConfigError } from './config-error.ts';
import {
  addressList,
  hostName,
  integer,
  oneOf,
  origins,
  postgresUrl,
  read,
  trustProxy,
  urlOf,
  type Env,
} from './env-readers.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServerSettings {
  port: number;
  host: string;
  apiHost: string;
  defaultTenant: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Whether a start (and every command) applies pending migrations itself: yes on the embedded
   * database, no on PostgreSQL and Citus, where `omni migrate` is the deploy's step.
   */
  migrateOnStart: boolean;
  /** Without migrateOnStart: how long a start waits for `omni migrate` before it exits (0: not). */
  schemaWaitSeconds: number;
  /** On a failover pair, the pg_auto_failover monitor asked before writing to a new node. */
  databaseMonitorUrl: string | undefined;
  /** On a failover pair, how long a commit whose answer was lost waits to learn its outcome. */
  commitOutcomeWaitSeconds: number;
  logLevel: LogLevel;
  /** Scheme and port that clients use to reach this server; they make each tenant's base URL. */
  publicScheme: 'http' | 'https';
  publicPort: number;
  jsonBodyLimitBytes: number;
  jobPollingIntervalSeconds: number;
  jobMaintenanceIntervalSeconds: number;
  /** Runs of one durable job that may end their process before the job is given up (failed). */
  jobCrashLimit: number;
  /** A running job's sign of life: a run silent this long is taken to have ended its process. */
  jobHeartbeatSeconds: number;
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
}

export const TENANT_NAME_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;
const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/** `type=requests per minute` pairs, comma-separated: `1=600,4=600`. */
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

export function serverSettings(env: Env): ServerSettings {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const defaultTenant = read(env, 'DEFAULT_TENANT');
  if (defaultTenant !== undefined && !TENANT_NAME_PATTERN.test(defaultTenant)) {
    throw new ConfigError(
      'DEFAULT_TENANT',
      `must match ${TENANT_NAME_PATTERN.source}`,
      defaultTenant,
    );
  }
  const databaseUrl = postgresUrl(env, 'DATABASE_URL');
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    apiHost: hostName(env, 'API_HOST', 'localhost'),
    defaultTenant,
    dataDir: read(env, 'DATA_DIR') ?? './data',
    databaseUrl,
    migrateOnStart:
      oneOf(env, 'MIGRATE_ON_START', ['true', 'false'], databaseUrl ? 'false' : 'true') === 'true',
    schemaWaitSeconds: integer(env, 'SCHEMA_WAIT_SECONDS', 0, 0, 86_400),
    databaseMonitorUrl: postgresUrl(env, 'DATABASE_MONITOR_URL'),
    commitOutcomeWaitSeconds: integer(env, 'DATABASE_COMMIT_OUTCOME_WAIT_SECONDS', 20, 0, 300),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    publicScheme: oneOf(env, 'PUBLIC_SCHEME', ['http', 'https'] as const, 'http'),
    publicPort: integer(env, 'PUBLIC_PORT', port, 1, 65535),
    jsonBodyLimitBytes: integer(env, 'JSON_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    jobPollingIntervalSeconds: integer(env, 'JOB_POLLING_INTERVAL_SECONDS', 2, 1, 60),
    jobMaintenanceIntervalSeconds: integer(env, 'JOB_MAINTENANCE_INTERVAL_SECONDS', 30, 1, 3600),
    jobCrashLimit: integer(env, 'JOB_CRASH_LIMIT', 3, 1, 100),
    jobHeartbeatSeconds: integer(env, 'JOB_HEARTBEAT_SECONDS', 15, 1, 3600),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    appRateLimits: appRateLimits(env, 'APP_RATE_LIMITS'),
    redisUrl: urlOf(env, 'REDIS_URL', ['redis:', 'rediss:']),
    idempotencyKeyTtlSeconds: integer(env, 'IDEMPOTENCY_KEY_TTL_SECONDS', 86_400, 1, 2_592_000),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    metricsAllowedAddresses: addressList(env, 'METRICS_ALLOWED_ADDRESSES', '127.0.0.0/8,::1'),
  };
}
