// The provisioning job across real server processes: it survives a SIGKILL in the middle and
// ends live after the restart; with two servers on one PostgreSQL it runs once. And the
// operator's `omni endpoint status <tenant>` shows the reason of a failure.
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp, createServices } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.ts';
import {
  migratedDataDir,
  removeTempDirs,
  runCli,
  ServerProcess,
  startServer,
  stopChildren,
  tempDir,
} from '../../support/processes.ts';
import { basicAuth, LogLines } from '../../support/test-api.ts';
import { openTestDatabase } from '../../support/test-database.ts';
import {
  ControlledProvisioner,
  ENDPOINT,
  KEY_PATH,
  sleep,
  waitFor,
} from './integration-helpers.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request to a server process, with the Host header given (bounded by 10 s). */
function request(
  port: number,
  host: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `${host}:${port}`, ...options.headers },
        timeout: 10_000,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
        response.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`${options.path} timed out`)));
    req.once('error', reject);
    req.end(options.body);
  });
}

const API_HEADERS = { accept: 'application/vnd.xomni.api-v4-0' };

async function tokenOf(port: number, tenant: string, appId: string, secret: string) {
  const answer = await request(port, `${tenant}.localhost`, {
    method: 'POST',
    path: '/oauth/token',
    headers: {
      authorization: basicAuth(appId, secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

function management(
  port: number,
  tenant: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  return request(port, `${tenant}.localhost`, {
    method,
    path,
    headers: {
      ...API_HEADERS,
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

async function statusOf(port: number, tenant: string, token: string): Promise<number> {
  const answer = await management(port, tenant, token, 'GET', ENDPOINT);
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { Status: number }).Status;
}

/** Starts `serve` and waits until it listens; answers its port. */
async function listening(server: ServerProcess): Promise<number> {
  const line = await server.waitForLog(/^Server listening at /);
  return Number(/:(\d+)$/.exec(String(line.msg))?.[1]);
}

/**
 * Restarts `serve` on a DATA_DIR whose previous server was killed: its lock turns stale after
 * about ten seconds, until then the new process stops with the "in use" message; try again.
 */
async function restart(
  env: Record<string, string>,
): Promise<{ server: ServerProcess; port: number }> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const server = new ServerProcess(env);
    try {
      return { server, port: await listening(server) };
    } catch (error) {
      if (!/in use by another process/.test(server.stderr) || Date.now() > deadline) throw error;
      await sleep(1000);
    }
  }
}

interface JobRow {
  state: string;
  retryCount: number;
}

function provisioningJobs(db: DatabaseHandle): Promise<JobRow[]> {
  return db.query<JobRow>(
    `select state::text as state, retry_count as "retryCount" from pgboss.job where name = 'integration.provision'
     union all
     select state::text, retry_count from pgboss.archive where name = 'integration.provision'`,
  );
}

describe('a server killed in the middle of provisioning', () => {
  it('resumes the job after the restart: it ends in Status 2, no sooner than the delay, once', async () => {
    const dataDir = await migratedDataDir();
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PROVISIONING_DELAY_SECONDS: '4',
      PROVISIONING_TIMEOUT_SECONDS: '8',
      JOB_POLLING_INTERVAL_SECONDS: '1',
      JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
    };
    const first = await startServer(dataDir, env);
    const { appId, secret } = first.demo;
    let token = await tokenOf(first.port, 'demo', appId, secret);
    const createdAt = Date.now();
    const created = await management(first.port, 'demo', token, 'POST', ENDPOINT, {
      ServiceName: 'demo-svc',
      ServiceTier: 0,
      AdminMail: 'ops@demo.example',
    });
    expect(created.status, created.body).toBe(201);
    expect(await statusOf(first.port, 'demo', token)).toBe(1);

    // The job is picked up within a polling interval and then waits out the delay: kill it there.
    await sleep(2500);
    expect(await statusOf(first.port, 'demo', token)).toBe(1);
    first.server.child.kill('SIGKILL');
    expect((await first.server.waitForExit()).signal).toBe('SIGKILL');

    const second = await restart(env);
    token = await tokenOf(second.port, 'demo', appId, secret);
    await waitFor(
      'Status 2 after the restart',
      async () => ((await statusOf(second.port, 'demo', token)) === 2 ? true : undefined),
      40_000,
      250,
    );
    // PROVISIONING_DELAY_SECONDS is a lower bound on the creation time.
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual(4000);

    // Live over real HTTP: the gateway forwards with the key.
    const key = await management(second.port, 'demo', token, 'GET', KEY_PATH);
    expect(key.status).toBe(200);
    const { SubscriptionKey } = JSON.parse(key.body) as { SubscriptionKey: string };
    const gateway = await request(second.port, 'demo-svc.integration.localhost', {
      path: ENDPOINT,
      headers: {
        ...API_HEADERS,
        authorization: `Bearer ${token}`,
        'x-subscription-key': SubscriptionKey,
      },
    });
    expect(gateway.status, gateway.body).toBe(200);
    expect(gateway.headers['ratelimit-limit']).toBe('10');

    // Stop it, then look into its database: one job, retried after the kill; one notification.
    second.server.child.kill('SIGTERM');
    expect((await second.server.waitForExit()).code).toBe(0);
    const database = await openDatabase(loadConfig({ DATA_DIR: dataDir }));
    try {
      const jobs = await provisioningJobs(database);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.state).toBe('completed');
      expect(jobs[0]!.retryCount).toBeGreaterThanOrEqual(1);
      const [outbox] = await database.query<{ count: number }>(
        'select count(*)::int as count from notification_outbox',
      );
      expect(outbox?.count).toBe(1);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('omni endpoint status <tenant>', () => {
  it('prints Status 3 and the reason of the failure for the operator', async () => {
    const dataDir = await migratedDataDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JOB_POLLING_INTERVAL_SECONDS: '1',
    });
    const provisioner = new ControlledProvisioner();
    provisioner.fail('broken-svc', 'the gateway rejected the route: certificate expired');
    const database = await openDatabase(config);
    try {
      const services = createServices(config, database, { provisioner });
      const app = await buildApp(services, { logStream: new LogLines() });
      try {
        const { bootstrapApp } = await services.tenants.create('acme');
        const token = await app.inject({
          method: 'POST',
          url: '/oauth/token',
          headers: {
            host: 'acme.localhost',
            authorization: basicAuth(bootstrapApp.ApplicationId, bootstrapApp.ApplicationSecret!),
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: 'grant_type=client_credentials',
        });
        const headers = {
          host: 'acme.localhost',
          ...API_HEADERS,
          authorization: `Bearer ${token.json<{ access_token: string }>().access_token}`,
        };
        const created = await app.inject({
          method: 'POST',
          url: ENDPOINT,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: { ServiceName: 'broken-svc', ServiceTier: 0, AdminMail: 'ops@acme.example' },
        });
        expect(created.statusCode).toBe(201);
        await waitFor('Status 3', async () => {
          const detail = await app.inject({ method: 'GET', url: ENDPOINT, headers });
          return detail.json<{ Status: number }>().Status === 3 ? true : undefined;
        });
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }

    const failed = await runCli(['endpoint', 'status', 'acme'], { DATA_DIR: dataDir });
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stdout).toContain('broken-svc: status 3 (failed), tier 0');
    expect(failed.stdout).toContain(
      'Failure reason: the gateway rejected the route: certificate expired',
    );
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers on one PostgreSQL', () => {
  it('runs the provisioning job once, and shares the rate limit', async () => {
    const database = await openTestDatabase();
    try {
      const url = database.url!;
      const services = createServices(loadConfig({ DATABASE_URL: url }), database.handle);
      const { bootstrapApp } = await services.tenants.create('acme');
      const env = {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        DATA_DIR: await tempDir(),
        LOG_LEVEL: 'info',
        PROVISIONING_DELAY_SECONDS: '2',
        JOB_POLLING_INTERVAL_SECONDS: '1',
        JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
        GATEWAY_RATE_LIMITS: '3,5,7',
      };
      // Both start at once on a database whose job queues do not exist yet, as two replicas of
      // a first deployment would: both must come up.
      const a = new ServerProcess(env);
      const b = new ServerProcess(env);
      const [portA, portB] = await Promise.all([listening(a), listening(b)]);
      const token = await tokenOf(
        portA,
        'acme',
        bootstrapApp.ApplicationId,
        bootstrapApp.ApplicationSecret!,
      );

      const created = await management(portA, 'acme', token, 'POST', ENDPOINT, {
        ServiceName: 'twin-svc',
        ServiceTier: 0,
        AdminMail: 'ops@acme.example',
      });
      expect(created.status, created.body).toBe(201);
      // B sees what A created, and its end.
      expect(await statusOf(portB, 'acme', token)).toBe(1);
      await waitFor(
        'Status 2',
        async () => ((await statusOf(portB, 'acme', token)) === 2 ? true : undefined),
        30_000,
        250,
      );
      // Give the other instance a few polls in which it could (wrongly) run the job again.
      await sleep(2500);

      const jobs = await provisioningJobs(database.handle);
      expect(jobs).toEqual([{ state: 'completed', retryCount: 0 }]);
      const [outbox] = await database.handle.query<{ count: number }>(
        'select count(*)::int as count from notification_outbox',
      );
      expect(outbox?.count).toBe(1);
      const provisioned = [a, b].flatMap((s) =>
        s.lines.filter((l) => l.includes('"integration endpoint provisioned"')),
      );
      expect(provisioned).toHaveLength(1);

      // The rate limit is counted in the database: 3 per second across both servers.
      const key = await management(portA, 'acme', token, 'GET', KEY_PATH);
      const { SubscriptionKey } = JSON.parse(key.body) as { SubscriptionKey: string };
      const viaGateway = (port: number) =>
        request(port, 'twin-svc.integration.localhost', {
          path: ENDPOINT,
          headers: {
            ...API_HEADERS,
            authorization: `Bearer ${token}`,
            'x-subscription-key': SubscriptionKey,
          },
        });
      const now = Date.now() % 1000;
      if (now > 100) await sleep(1000 - now + 5);
      const answers = await Promise.all([portA, portA, portA, portB, portB, portB].map(viaGateway));
      const ok = answers.filter((r) => r.status === 200).length;
      expect(ok).toBeGreaterThanOrEqual(3);
      expect(ok).toBeLessThan(6);
      expect(answers.filter((r) => r.status === 429).length).toBe(6 - ok);
    } finally {
      await stopChildren();
      await database.handle.close();
    }
  }, 120_000);
});
