// The provisioning job across real server processes: it survives a SIGKILL in the middle and
// ends live after the restart; with two servers on one PostgreSQL it runs once. And the
// operator's `omni endpoint status <tenant>` shows the reason of a failure.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createServices } from '../../../src/module-wiring.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/connection/database.ts';
import {
  migratedDataDir,
  removeTempDirs,
  runCli,
  listeningServer,
  startServer,
  stopChildren,
  tempDir,
} from '../../support/processes.ts';
import { basicAuth, LogLines } from '../../support/test-api.ts';
import { bearerCall, clientToken, httpCall, type HttpAnswer } from '../../support/http-call.ts';
import { openTestDatabase } from '../../support/test-database.ts';
import {
  ControlledProvisioner,
  ENDPOINT,
  KEY_PATH,
  sleep,
  waitFor,
} from './integration-fixtures.ts';
import { checkInjectedAnswers } from '../../support/openapi-answers.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const API_HEADERS = { accept: 'application/vnd.xomni.api-v4-0' };

/** One HTTP request to a server process, with the Host header given. */
const request = (
  port: number,
  host: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
) => httpCall(port, { ...options, host: `${host}:${port}`, timeoutMs: 10_000 });

const tokenOf = (port: number, tenant: string, appId: string, secret: string) =>
  clientToken(port, `${tenant}.localhost:${port}`, appId, secret);

const management = (
  port: number,
  tenant: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) =>
  bearerCall(
    port,
    `${tenant}.localhost:${port}`,
    token,
    method,
    path,
    body === undefined ? undefined : JSON.stringify(body),
  );

async function statusOf(port: number, tenant: string, token: string): Promise<number> {
  const answer = await management(port, tenant, token, 'GET', ENDPOINT);
  expect(answer.status, answer.text).toBe(200);
  return (JSON.parse(answer.text) as { Status: number }).Status;
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
  /** Long enough that the kill, halfway, comes seconds after the pick-up and before the end. */
  const DELAY_SECONDS = 8;

  it('resumes the job after the restart: it ends in Status 2, no sooner than the delay, once', async () => {
    const dataDir = await migratedDataDir();
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PROVISIONING_DELAY_SECONDS: String(DELAY_SECONDS),
      PROVISIONING_TIMEOUT_SECONDS: String(DELAY_SECONDS + 2),
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
    expect(created.status, created.text).toBe(201);
    expect(await statusOf(first.port, 'demo', token)).toBe(1);

    // The job is picked up within a polling interval (1 s) and then waits out the delay: kill it
    // there, halfway, as far from the pick-up as from the end (neither can be watched from here).
    await sleep(createdAt + (DELAY_SECONDS * 1000) / 2 - Date.now());
    expect(await statusOf(first.port, 'demo', token)).toBe(1);
    first.server.child.kill('SIGKILL');
    expect((await first.server.waitForExit()).signal).toBe('SIGKILL');

    // The killed server's lock on DATA_DIR is taken over at once (src/db/connection/embedded-lock.ts).
    const second = await listeningServer(dataDir, env);
    token = await tokenOf(second.port, 'demo', appId, secret);
    await waitFor(
      'Status 2 after the restart',
      async () => ((await statusOf(second.port, 'demo', token)) === 2 ? true : undefined),
      40_000,
      250,
    );
    // PROVISIONING_DELAY_SECONDS is a lower bound on the creation time.
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual(DELAY_SECONDS * 1000);

    // Live over real HTTP: the gateway forwards with the key.
    const key = await management(second.port, 'demo', token, 'GET', KEY_PATH);
    expect(key.status).toBe(200);
    const { SubscriptionKey } = JSON.parse(key.text) as { SubscriptionKey: string };
    const gateway = await request(second.port, 'demo-svc.integration.localhost', {
      path: ENDPOINT,
      headers: {
        ...API_HEADERS,
        authorization: `Bearer ${token}`,
        'x-subscription-key': SubscriptionKey,
      },
    });
    expect(gateway.status, gateway.text).toBe(200);
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
      checkInjectedAnswers(app);
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
        // Long enough that B's first look, right after the creation, comes before the end.
        PROVISIONING_DELAY_SECONDS: '4',
        JOB_POLLING_INTERVAL_SECONDS: '1',
        JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
        GATEWAY_RATE_LIMITS: '3,5,7',
      };
      // Both start at once on a database whose job queues do not exist yet, as two replicas of
      // a first deployment would: both must come up.
      const [a, b] = await Promise.all([
        listeningServer(env.DATA_DIR, env),
        listeningServer(env.DATA_DIR, env),
      ]);
      const [portA, portB] = [a.port, b.port];
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
      expect(created.status, created.text).toBe(201);
      // B sees what A created, and its end.
      expect(await statusOf(portB, 'acme', token)).toBe(1);
      await waitFor(
        'Status 2',
        async () => ((await statusOf(portB, 'acme', token)) === 2 ? true : undefined),
        30_000,
        250,
      );
      // pg-boss marks the job completed, and the server logs it, just after the status moves.
      const provisioned = () =>
        [a, b].flatMap(({ server }) =>
          server.lines.filter((l) => l.includes('"integration endpoint provisioned"')),
        );
      await waitFor('the completed job and its log line', async () =>
        provisioned().length > 0 &&
        (await provisioningJobs(database.handle)).some((job) => job.state === 'completed')
          ? true
          : undefined,
      );
      // Give the other instance a few polls in which it could (wrongly) run the job again.
      await sleep(2500);

      const jobs = await provisioningJobs(database.handle);
      expect(jobs).toEqual([{ state: 'completed', retryCount: 0 }]);
      const [outbox] = await database.handle.query<{ count: number }>(
        'select count(*)::int as count from notification_outbox',
      );
      expect(outbox?.count).toBe(1);
      expect(provisioned()).toHaveLength(1);

      // The rate limit is counted in the database: 3 per second across both servers.
      const key = await management(portA, 'acme', token, 'GET', KEY_PATH);
      const { SubscriptionKey } = JSON.parse(key.text) as { SubscriptionKey: string };
      const viaGateway = (port: number) =>
        request(port, 'twin-svc.integration.localhost', {
          path: ENDPOINT,
          headers: {
            ...API_HEADERS,
            authorization: `Bearer ${token}`,
            'x-subscription-key': SubscriptionKey,
          },
        });
      // Six requests at once, three through each server, all in one one-second window: a burst
      // that straddled two windows (a slow machine) is sent again on fresh counters.
      const windows = () =>
        database.handle.query<{ requests: number }>(
          `select requests from gateway_rate_windows where service_name = 'twin-svc'`,
        );
      let answers: HttpAnswer[] = [];
      for (let attempt = 1; ; attempt++) {
        await database.handle.query(
          `delete from gateway_rate_windows where service_name = 'twin-svc'`,
        );
        const now = Date.now() % 1000;
        if (now > 100) await sleep(1000 - now + 5);
        answers = await Promise.all([portA, portA, portA, portB, portB, portB].map(viaGateway));
        if ((await windows()).length === 1) break;
        if (attempt === 20) throw new Error('no burst of six requests fell into one second');
      }
      expect(await windows()).toEqual([{ requests: 6 }]);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(3);
    } finally {
      await stopChildren();
      await database.handle.close();
    }
  }, 120_000);
});
