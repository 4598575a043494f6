import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { removeTempDirs, runCli, stopChildren } from './support/processes.ts';

afterEach(stopChildren);
afterAll(removeTempDirs);

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('configuration defaults', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfig({})).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      apiHost: 'localhost',
      defaultTenant: undefined,
      dataDir: './data',
      databaseUrl: undefined,
      migrateOnStart: true,
      schemaWaitSeconds: 0,
      logLevel: 'info',
      tokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 86_400,
      integrationHost: 'integration.localhost',
      provisioningDelaySeconds: 0,
      publicScheme: 'http',
      publicPort: 8080,
      jsonBodyLimitBytes: 1_048_576,
      corsOrigins: [],
      webhookPollingIntervalMs: 30_000,
      webhookWake: 'commit',
    });
  });

  it('polls for webhooks every second by default when commits do not wake the dispatcher', () => {
    expect(loadConfig({ WEBHOOK_WAKE: 'poll' }).webhookPollingIntervalMs).toBe(1000);
    expect(
      loadConfig({ WEBHOOK_WAKE: 'poll', WEBHOOK_POLLING_INTERVAL_MS: '250' })
        .webhookPollingIntervalMs,
    ).toBe(250);
  });

  it('reads CORS_ORIGINS as a list of origins, or * for any', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://shop.example.com, http://localhost:5173' }).corsOrigins,
    ).toEqual(['https://shop.example.com', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it('reads WEBHOOK_ALLOWED_HOSTS as host:port entries, in the form URLs give them', () => {
    expect(
      loadConfig({
        WEBHOOK_ALLOWED_HOSTS:
          'Receiver.Internal:9000, 127.0.0.1:9000,[::1]:9000,[FD00:0:0::5]:443,hooks.internal:8443',
      }).webhookAllowedHosts,
    ).toEqual([
      'receiver.internal:9000',
      '127.0.0.1:9000',
      '[::1]:9000',
      '[fd00::5]:443',
      'hooks.internal:8443',
    ]);
    expect(loadConfig({}).webhookAllowedHosts).toEqual([]);
    expect(loadConfig({}).webhookTimeoutSeconds).toBe(10);
  });

  it.each(['127.0.0.1', 'hooks.internal', '[::1]', 'fd00::5', 'hooks.internal:9000,127.0.0.1'])(
    'refuses the WEBHOOK_ALLOWED_HOSTS entry without a port in %j, telling to add it',
    (value) => {
      const error = configErrorOf({ WEBHOOK_ALLOWED_HOSTS: value });
      expect(error.variable).toBe('WEBHOOK_ALLOWED_HOSTS');
      expect(error.message).toMatch(/has no port: add the port/);
    },
  );

  it('treats empty and blank values as unset', () => {
    const config = loadConfig({ PORT: '', API_HOST: '   ', DEFAULT_TENANT: '', DATABASE_URL: ' ' });
    expect(config).toMatchObject({
      port: 8080,
      apiHost: 'localhost',
      defaultTenant: undefined,
      databaseUrl: undefined,
    });
  });

  it('reads every variable that is set', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      API_HOST: 'API.Example.com',
      DEFAULT_TENANT: 'acme',
      DATA_DIR: '/var/lib/omni',
      DATABASE_URL: 'postgresql://omni@db.internal:5432/omni',
      LOG_LEVEL: 'warn',
      TOKEN_TTL_SECONDS: '600',
      REFRESH_TOKEN_TTL_SECONDS: '3600',
      INTEGRATION_HOST: 'gw.example.com',
      PROVISIONING_DELAY_SECONDS: '5',
      PUBLIC_SCHEME: 'https',
      PUBLIC_PORT: '443',
      SCHEMA_WAIT_SECONDS: '120',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      apiHost: 'api.example.com',
      defaultTenant: 'acme',
      dataDir: '/var/lib/omni',
      databaseUrl: 'postgresql://omni@db.internal:5432/omni',
      migrateOnStart: false,
      schemaWaitSeconds: 120,
      logLevel: 'warn',
      tokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 3600,
      integrationHost: 'gw.example.com',
      provisioningDelaySeconds: 5,
      publicScheme: 'https',
      publicPort: 443,
    });
  });

  it('migrates on start on the embedded database, not on PostgreSQL unless MIGRATE_ON_START=true', () => {
    const postgres = 'postgres://omni@127.0.0.1:5432/omni';
    expect(loadConfig({ MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
    expect(loadConfig({ DATABASE_URL: postgres }).migrateOnStart).toBe(false);
    expect(loadConfig({ DATABASE_URL: postgres, MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(
      true,
    );
  });

  it('derives the integration host from API_HOST and the public port from PORT', () => {
    const config = loadConfig({ API_HOST: 'api.example.com', PORT: '3000' });
    expect(config.integrationHost).toBe('integration.api.example.com');
    expect(config.publicPort).toBe(3000);
  });
});

describe('TRUST_PROXY', () => {
  it('reads false, true, a hop count or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });
});

describe('configuration errors name the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '80.5'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['API_HOST', 'not a host'],
    ['API_HOST', 'bad_host!'],
    ['API_HOST', '-leading.example.com'],
    ['DEFAULT_TENANT', 'Acme'],
    ['DEFAULT_TENANT', 'a'],
    ['DEFAULT_TENANT', 'acme_shop'],
    ['DEFAULT_TENANT', 'acme-'],
    ['DATABASE_URL', 'mysql://root@localhost/omni'],
    ['DATABASE_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['MIGRATE_ON_START', 'yes'],
    ['SCHEMA_WAIT_SECONDS', '-1'],
    ['SCHEMA_WAIT_SECONDS', 'a minute'],
    ['TOKEN_TTL_SECONDS', 'abc'],
    ['TOKEN_TTL_SECONDS', '0'],
    ['TOKEN_TTL_SECONDS', '-60'],
    ['REFRESH_TOKEN_TTL_SECONDS', '60'],
    ['REFRESH_TOKEN_TTL_SECONDS', 'a day'],
    ['TRUST_PROXY', 'the load balancer'],
    ['PROVISIONING_DELAY_SECONDS', 'soon'],
    ['PROVISIONING_DELAY_SECONDS', '-1'],
    ['PUBLIC_SCHEME', 'ftp'],
    ['CORS_ORIGINS', 'shop.example.com'],
    ['CORS_ORIGINS', 'https://shop.example.com/path'],
    ['CORS_ORIGINS', 'https://a.example.com,,https://b.example.com'],
    ['CORS_ORIGINS', 'ftp://files.example.com'],
    ['WEBHOOK_ALLOWED_HOSTS', 'http://localhost'],
    ['WEBHOOK_ALLOWED_HOSTS', 'http://localhost:9000'],
    ['WEBHOOK_ALLOWED_HOSTS', 'localhost:9000,,127.0.0.1:9000'],
    ['WEBHOOK_ALLOWED_HOSTS', 'localhost:0'],
    ['WEBHOOK_ALLOWED_HOSTS', 'localhost:65536'],
    ['WEBHOOK_ALLOWED_HOSTS', 'localhost:http'],
    ['WEBHOOK_ALLOWED_HOSTS', '::1:9000'],
    ['WEBHOOK_ALLOWED_HOSTS', '[::1:9000'],
    ['WEBHOOK_ALLOWED_HOSTS', '999.1.1.1:9000'],
    ['WEBHOOK_ALLOWED_HOSTS', 'under_score.internal:9000'],
    ['WEBHOOK_TIMEOUT_SECONDS', '0'],
    ['WEBHOOK_TIMEOUT_SECONDS', '61'],
    ['WEBHOOK_POLLING_INTERVAL_MS', '5'],
    ['WEBHOOK_WAKE', 'listen'],
    ['WEBHOOK_CONCURRENCY', '0'],
  ])('rejects %s=%j with a ConfigError naming it', (variable, value) => {
    const error = configErrorOf({ [variable]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).toContain(value.trim());
  });
});

describe('a bad URL with a password', () => {
  it.each([
    ['DATABASE_URL', 'mysql://omni:s3cret-pw@db.internal/omni'],
    ['DATABASE_URL', 'postgres://omni:s3cret-pw@db.internal:99999/omni'],
    ['SMTP_URL', 'http://mailer:s3cret-pw@mail.internal:587'],
    ['SMTP_URL', 'smtp://mailer:s3cret-pw@mail internal:587'],
  ])('is reported for %s without its password', (variable, value) => {
    const error = configErrorOf({ [variable]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('s3cret-pw');
    expect(error.message).toContain('***');
  });
});

describe('a bad configuration stops the CLI', () => {
  it('exits 1 with exactly one stderr line naming PORT when PORT=abc', async () => {
    const result = await runCli(['serve'], { PORT: 'abc', DATA_DIR: '/nonexistent/omni' });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
    expect(result.stdout).toBe('');
  });
});
