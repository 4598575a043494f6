import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connection/database.ts';
import { migratedDataDir, removeTempDirs, runCli, stopChildren } from '../support/processes.ts';
import { checkInjectedAnswers } from '../support/openapi-answers.ts';

// Each test runs the CLI on its own DATA_DIR: a copy of a migrated embedded database that
// already holds the tenant "existing" (made in-process, so that only the command under test
// is spawned).
const EXISTING = ['existing'];

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const TIMEOUT = 90_000;

interface ListedTenant {
  Tenant: string;
  BaseUrl: string;
  CreatedDate: string;
}

async function listTenants(dataDir: string): Promise<ListedTenant[]> {
  const result = await runCli(['tenant', 'list', '--json'], { DATA_DIR: dataDir });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListedTenant[];
}

describe('tenant create <name> --json', () => {
  it(
    'prints exactly one line of JSON with Tenant, ApplicationId, ApplicationSecret, BaseUrl and the owner',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const result = await runCli(['tenant', 'create', 'acme', '--json'], { DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.endsWith('\n')).toBe(true);
      const lines = result.stdout.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      const created = JSON.parse(lines[0]!) as Record<string, string>;
      expect(Object.keys(created).sort()).toEqual([
        'ApplicationId',
        'ApplicationSecret',
        'BaseUrl',
        'OwnerPassword',
        'OwnerUsername',
        'Tenant',
      ]);
      expect(created.OwnerUsername).toBe('owner');
      expect(created.OwnerPassword!.length).toBeGreaterThanOrEqual(24);
      expect(created).toMatchObject({ Tenant: 'acme', BaseUrl: 'http://acme.localhost:8080' });
      expect(created.ApplicationId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(created.ApplicationSecret!.length).toBeGreaterThanOrEqual(43);

      // The printed credentials are those of the new tenant's management app.
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const database = await openDatabase(config);
      try {
        const app = await buildApp(createServices(config, database));
        checkInjectedAnswers(app);
        try {
          const basic = Buffer.from(`${created.ApplicationId}:${created.ApplicationSecret}`);
          const token = await app.inject({
            method: 'POST',
            url: '/oauth/token',
            headers: {
              host: 'acme.localhost',
              authorization: `Basic ${basic.toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            payload: 'grant_type=client_credentials',
          });
          expect(token.statusCode, token.body).toBe(200);
          expect(token.json<{ scope: string }>().scope.split(' ')).toContain('management');
        } finally {
          await app.close();
        }
      } finally {
        await database.close();
      }
    },
    TIMEOUT,
  );

  it(
    'exits 1 with a clear message when the tenant already exists',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const result = await runCli(['tenant', 'create', 'existing', '--json'], {
        DATA_DIR: dataDir,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim()).toBe('Tenant "existing" already exists.');
    },
    TIMEOUT,
  );

  it(
    'exits 1 naming the rule when the name is not valid',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const result = await runCli(['tenant', 'create', 'Bad_Name'], { DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"Bad_Name" is not valid');
    },
    TIMEOUT,
  );
});

describe('tenant list --json', () => {
  it(
    'prints the tenants with their base URL and creation date',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const tenants = await listTenants(dataDir);
      expect(tenants).toEqual([
        {
          Tenant: 'existing',
          BaseUrl: 'http://existing.localhost:8080',
          CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        },
      ]);
    },
    TIMEOUT,
  );
});

describe('tenant delete <name>', () => {
  it(
    'deletes the tenant, which tenant list then no longer shows',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const result = await runCli(['tenant', 'delete', 'existing'], { DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe('Tenant "existing" deleted.');
      expect(await listTenants(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'exits 1 with a clear message for an unknown tenant',
    async () => {
      const dataDir = await migratedDataDir(EXISTING);
      const result = await runCli(['tenant', 'delete', 'nosuch'], { DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim()).toBe('Tenant "nosuch" does not exist.');
    },
    TIMEOUT,
  );
});
