// `omni member create <tenant> <username>`: makes a console member with a one-time password,
// which signs in once and must then be changed.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connection/database.ts';
import { migratedDataDir, removeTempDirs, runCli, stopChildren } from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const TIMEOUT = 90_000;

describe('member create <tenant> <username>', () => {
  it(
    'prints the member and a one-time password that the member signs in with',
    async () => {
      const dataDir = await migratedDataDir(['existing']);
      const result = await runCli(
        [
          'member',
          'create',
          'existing',
          'Dana',
          '--role',
          'analyst',
          '--role',
          'device-manager',
          '--json',
        ],
        { DATA_DIR: dataDir },
      );
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      const created = JSON.parse(lines[0]!) as {
        Tenant: string;
        Id: string;
        Username: string;
        Roles: string[];
        Password: string;
      };
      expect(created).toMatchObject({
        Tenant: 'existing',
        Username: 'dana',
        Roles: ['analyst', 'device-manager'],
      });
      expect(created.Password.length).toBeGreaterThanOrEqual(24);

      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const database = await openDatabase(config);
      try {
        const services = createServices(config, database);
        const app = await buildApp(services);
        try {
          const outcome = await services.members.signIn.signIn(
            (await services.tenants.findByName('existing'))!.id,
            'dana',
            created.Password,
            '127.0.0.1',
          );
          expect(outcome).toMatchObject({ mustChangePassword: true, member: { id: created.Id } });
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
    'makes an owner by default, and prints the password in the plain output',
    async () => {
      const dataDir = await migratedDataDir(['existing']);
      const result = await runCli(['member', 'create', 'existing', 'erin'], { DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Member "erin" created in tenant "existing"');
      expect(result.stdout).toContain('Roles: owner');
      expect(result.stdout).toMatch(/One-time password[^\n]*\n\s+\S{24,}/);
    },
    TIMEOUT,
  );

  it(
    'exits 1 with a clear message for an unknown tenant, a taken username or an unknown role',
    async () => {
      const dataDir = await migratedDataDir(['existing']);
      const unknownTenant = await runCli(['member', 'create', 'nowhere', 'x-user'], {
        DATA_DIR: dataDir,
      });
      expect(unknownTenant.code).toBe(1);
      expect(unknownTenant.stderr.trim()).toBe('Tenant "nowhere" does not exist.');
      const taken = await runCli(['member', 'create', 'existing', 'owner'], { DATA_DIR: dataDir });
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('already exists');
      const badRole = await runCli(['member', 'create', 'existing', 'fred', '--role', 'boss'], {
        DATA_DIR: dataDir,
      });
      expect(badRole.code).toBe(1);
      expect(badRole.stderr).toContain('no role "boss"');
    },
    TIMEOUT,
  );
});
