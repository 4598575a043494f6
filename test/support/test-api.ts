// One running API per test file on its own fresh database, called through app.inject with a
// tenant host, plus helpers to make tenants and tokens the way a client would.
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices, type ServiceOverrides, type Services } from '../../src/module-wiring.ts';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { checkInjectedAnswers } from './openapi-answers.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export interface TestTenant {
  name: string;
  host: string;
  appId: string;
  secret: string;
  /** A management-scope token of the bootstrap app. */
  token: string;
}

export interface CallOptions {
  method?: InjectOptions['method'];
  url: string;
  tenant?: TestTenant | string;
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** With TEST_LOG_ERRORS=1, the server's error lines are also written to stderr (to debug a 500). */
const echoErrors = process.env.TEST_LOG_ERRORS === '1';

export class LogLines extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    const lines = chunk.toString('utf8').split('\n').filter(Boolean);
    this.lines.push(...lines);
    if (echoErrors)
      for (const line of lines) if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`);
    callback();
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApi {
  app: FastifyInstance;
  services: Services;
  config: Config;
  database: TestDatabase;
  logs: LogLines;
  createTenant(name: string): Promise<TestTenant>;
  issueToken(
    tenant: TestTenant | string,
    appId: string,
    secret: string,
    scope?: string,
  ): Promise<string>;
  call(options: CallOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function startTestApi(
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
  /** What the app is given instead of the test database's handle (a recorder of its statements). */
  wrapDatabase: (handle: DatabaseHandle) => DatabaseHandle = (handle) => handle,
): Promise<TestApi> {
  const config = loadConfig({ LOG_LEVEL: 'info', PORT: '8080', DATA_DIR: '/nonexistent', ...env });
  const database = await openTestDatabase();
  const services = createServices(config, wrapDatabase(database.handle), overrides);
  const logs = new LogLines();
  const app = await buildApp(services, { logStream: logs });
  await app.ready();
  // Every answer of app.inject (direct, or through call and issueToken) is checked against the
  // app's OpenAPI document; a mismatch throws from the call.
  checkInjectedAnswers(app);

  const hostOf = (tenant: TestTenant | string | undefined) =>
    tenant === undefined
      ? 'localhost'
      : typeof tenant === 'string'
        ? `${tenant}.${config.apiHost}`
        : tenant.host;

  const api: TestApi = {
    app,
    services,
    config,
    database,
    logs,
    async createTenant(name) {
      const { bootstrapApp } = await services.tenants.create(name);
      const partial = {
        name,
        host: `${name}.${config.apiHost}`,
        appId: bootstrapApp.ApplicationId,
        secret: bootstrapApp.ApplicationSecret!,
      };
      return {
        ...partial,
        token: await api.issueToken(partial.name, partial.appId, partial.secret),
      };
    },
    async issueToken(tenant, appId, secret, scope) {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        ...(scope ? { scope } : {}),
      });
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          host: hostOf(tenant),
          authorization: basicAuth(appId, secret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: form.toString(),
      });
      if (response.statusCode !== 200)
        throw new Error(`token request failed: ${response.statusCode} ${response.body}`);
      return response.json<{ access_token: string }>().access_token;
    },
    call({ method = 'GET', url, tenant, token, body, headers = {} }) {
      const bearer =
        token === undefined ? (typeof tenant === 'object' ? tenant.token : undefined) : token;
      return app.inject({
        method,
        url,
        headers: {
          host: hostOf(tenant),
          accept: 'application/vnd.xomni.api-v4-0',
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined
          ? { payload: typeof body === 'string' ? body : JSON.stringify(body) }
          : {}),
      });
    },
    async close() {
      await app.close();
      await database.handle.close();
    },
  };
  return api;
}

/**
 * The setup every API test file repeats: registers a hook that starts the server before the
 * file's tests and one that closes it after them, and returns the server. The handle may be
 * used once the tests (or a later hook) run, not while the file is being loaded.
 */
export function useTestApi(
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): TestApi {
  return useStartedApi(() => startTestApi(env, overrides));
}

/** useTestApi for a server that another starter builds (closed by its own close). */
export function useStartedApi(start: () => Promise<TestApi>): TestApi {
  let started: TestApi | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  const current = (): TestApi => {
    if (!started) throw new Error('the test API is used before its beforeAll hook has run');
    return started;
  };
  return {
    get app() {
      return current().app;
    },
    get services() {
      return current().services;
    },
    get config() {
      return current().config;
    },
    get database() {
      return current().database;
    },
    get logs() {
      return current().logs;
    },
    createTenant: (name) => current().createTenant(name),
    issueToken: (tenant, appId, secret, scope) =>
      current().issueToken(tenant, appId, secret, scope),
    call: (options) => current().call(options),
    close: () => current().close(),
  };
}

/**
 * A tenant of the file's server, created by a hook registered after the server's (so before the
 * file's own hooks run). Like the server's handle, it may be read once the hooks have run.
 */
export function useTenant(api: TestApi, name: string): TestTenant {
  let created: TestTenant | undefined;
  beforeAll(async () => {
    created = await api.createTenant(name);
  });
  const current = (): TestTenant => {
    if (!created) throw new Error(`tenant ${name} is used before its beforeAll hook has run`);
    return created;
  };
  return {
    get name() {
      return current().name;
    },
    get host() {
      return current().host;
    },
    get appId() {
      return current().appId;
    },
    get secret() {
      return current().secret;
    },
    get token() {
      return current().token;
    },
  };
}

/** Asserts the contract's error body and returns it. */
export function errorBody(response: LightMyRequestResponse): {
  IdentifierGuid: string;
  IdentifierTick: number;
  FriendlyDescription: string;
  Code: string;
  Errors?: { Field: string; Message: string }[];
} {
  const body = response.json<{
    IdentifierGuid: string;
    IdentifierTick: number;
    FriendlyDescription: string;
    Code: string;
  }>();
  if (body.IdentifierGuid !== response.headers['x-request-id']) {
    throw new Error(
      `error body IdentifierGuid ${body.IdentifierGuid} differs from X-Request-Id ${String(response.headers['x-request-id'])}`,
    );
  }
  if (
    typeof body.Code !== 'string' ||
    typeof body.FriendlyDescription !== 'string' ||
    typeof body.IdentifierTick !== 'number'
  ) {
    throw new Error(`not the contract's error body: ${response.body}`);
  }
  return body;
}
