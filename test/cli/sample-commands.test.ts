// `omni sample seed|remove` as an operator runs them (the real CLI, on an embedded DATA_DIR), and
// the first start's sample: `npm start` on a new database fills the demo tenant unless told not
// to, and its printed curl lines search the sample.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  migratedDataDir,
  removeTempDirs,
  runCli,
  startServer,
  stopChildren,
  type StartedServer,
} from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const TIMEOUT = 180_000;

/** The demo app's bearer header, from the credentials the start printed (DEFAULT_TENANT=demo). */
async function demoBearer({ port, demo }: StartedServer): Promise<{ authorization: string }> {
  const basic = Buffer.from(`${demo.appId}:${demo.secret}`).toString('base64');
  const token = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}

// The children run on the embedded database whatever the suite's engine (support/processes.ts):
// on PostgreSQL and Citus this file would repeat the PGlite run exactly.
const ON_EMBEDDED = !process.env.TEST_DATABASE_URL;

describe.runIf(ON_EMBEDDED)('sample seed --tenant <name> [--items <n>]', () => {
  it(
    'fills the tenant, says what it holds, and removes it (seeding twice: sample-seed.test.ts)',
    async () => {
      const dataDir = await migratedDataDir(['shop']);
      const first = await runCli(['sample', 'seed', '--tenant', 'shop', '--items', '30'], {
        DATA_DIR: dataDir,
      });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(
        /Tenant "shop" holds the sample: 30 items, 27 categories, 10 brands/,
      );
      expect(first.stdout).toContain('10 stores');
      const removed = await runCli(['sample', 'remove', '--tenant', 'shop'], { DATA_DIR: dataDir });
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toMatch(
        /Removed from tenant "shop": 30 items, 27 categories, 10 brands/,
      );
      expect(removed.stdout).not.toContain('Kept');
    },
    TIMEOUT,
  );

  it.each([
    [['sample', 'seed'], '--tenant <name> is required.'],
    [['sample', 'seed', '--tenant', 'shop', '--items', '0'], '--items takes a whole number'],
    [['sample', 'seed', '--tenant', 'nobody'], 'Tenant "nobody" does not exist.'],
  ])(
    '%j is refused with a message, never a stack trace',
    async (args, message) => {
      const result = await runCli(args, { DATA_DIR: await migratedDataDir(['shop']) });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
    TIMEOUT,
  );
});

describe.runIf(ON_EMBEDDED)('npm start on a new database: the sample catalog', () => {
  it(
    'fills the demo tenant after the server answers, and prints curl lines that search it',
    async () => {
      const started = await startServer(await migratedDataDir(), {
        SAMPLE_CATALOG: 'true',
        DEFAULT_TENANT: 'demo',
      });
      const { server, port } = started;
      // The try-it lines follow the ready line, perhaps in a later chunk of the pipe.
      const search = await server.waitForLine(
        (line) => line.includes('/items/search?q=lantern'),
        150_000,
      );
      expect(server.output()).toMatch(/The sample catalog is ready in [\d.]+ s: 200 items/);

      // DEFAULT_TENANT=demo: the loopback address is the demo tenant, for fetch too.
      const bearer = await demoBearer(started);
      const path = /\/private\/catalog\/items\/search\?q=lantern&take=3/.exec(search)![0];
      const found = await fetch(`http://127.0.0.1:${port}${path}`, { headers: bearer });
      const page = (await found.json()) as { TotalCount: number; Results: { Title: string }[] };
      expect(page.TotalCount).toBeGreaterThan(3);
      for (const item of page.Results) expect(item.Title.toLowerCase()).toContain('lantern');
    },
    TIMEOUT,
  );

  it(
    'leaves the demo tenant empty with --no-sample',
    async () => {
      const started = await startServer(
        await migratedDataDir(),
        { SAMPLE_CATALOG: 'true', DEFAULT_TENANT: 'demo' },
        ['--no-sample'],
      );
      const { server, port } = started;
      expect(server.output()).not.toContain('sample catalog');
      expect(server.output()).toContain('/management/oauth/apps');
      const bearer = await demoBearer(started);
      for (const path of [
        '/private/catalog/items?take=1',
        '/management/company/stores?skip=0&take=1',
      ]) {
        const answer = await fetch(`http://127.0.0.1:${port}${path}`, { headers: bearer });
        expect(answer.status, path).toBe(200);
        expect(((await answer.json()) as { TotalCount: number }).TotalCount, path).toBe(0);
      }
    },
    TIMEOUT,
  );
});
