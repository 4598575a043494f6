// Migrations as the deploy's release step on PostgreSQL and Citus (docs/operations.md,
// "Deploying a new version"): `omni migrate` changes the schema, a server start or a command does
// not. A start on a schema older than its version says which command to run and exits with code
// 3, or waits for it (SCHEMA_WAIT_SECONDS); a start on a current schema runs no DDL at all.
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import {
  listeningServer,
  removeTempDirs,
  runCli,
  ServerProcess,
  stopChildren,
  tempDir,
} from '../support/processes.ts';
import { openEmptyDatabase, openTestDatabase } from '../support/test-database.ts';

afterEach(stopChildren);
afterAll(removeTempDirs);

/** The tables of the public schema: none on a database no migration touched. */
async function tableCount(database: DatabaseHandle): Promise<number> {
  const [row] = await database.query<{ count: number }>(
    "select count(*)::int as count from pg_tables where schemaname in ('public', 'pgboss')",
  );
  return row!.count;
}

async function readiness(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/health/ready`)).status;
}

describe.skipIf(inject('testDatabase').engine === 'pglite')(
  'serve and commands on PostgreSQL: migrations are a release step',
  () => {
    it('a start on a database without the schema says to run `omni migrate` and exits 3, changing nothing', async () => {
      const database = await openEmptyDatabase();
      try {
        const server = new ServerProcess({
          DATABASE_URL: database.url!,
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: await tempDir('omni-release-'),
        });
        const exit = await server.waitForExit(60_000);
        expect(exit.code, server.output()).toBe(3);
        expect(server.stderr).toContain('npm run omni -- migrate');
        expect(server.stderr).toContain('MIGRATE_ON_START=true');
        expect(await tableCount(database)).toBe(0);
        // A command is refused the same way.
        const command = await runCli(['tenant', 'list'], { DATABASE_URL: database.url! });
        expect(command.code, command.stderr).toBe(3);
        expect(command.stderr).toContain('npm run omni -- migrate');
        expect(await tableCount(database)).toBe(0);
      } finally {
        await database.close();
      }
    }, 120_000);

    it('with SCHEMA_WAIT_SECONDS, a start waits for `omni migrate`, then serves', async () => {
      const database = await openEmptyDatabase();
      try {
        const server = new ServerProcess({
          DATABASE_URL: database.url!,
          SCHEMA_WAIT_SECONDS: '300',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: await tempDir('omni-release-'),
          LOG_LEVEL: 'info',
        });
        await expect
          .poll(() => server.stderr, { timeout: 30_000 })
          .toContain('Waiting up to 300 s (SCHEMA_WAIT_SECONDS)');
        expect(await tableCount(database)).toBe(0);
        // Making a whole schema takes a minute or more on Citus.
        const migrated = await runCli(['migrate'], { DATABASE_URL: database.url! }, 240_000);
        expect(migrated.code, migrated.stderr).toBe(0);
        expect(migrated.stdout).toContain('Applied: ');
        const listening = await server.waitForLog(/^Server listening at /, 60_000);
        const port = Number(/:(\d+)$/.exec(String(listening.msg))?.[1]);
        expect(server.stderr).toContain('The schema is now current; starting.');
        expect(await readiness(port)).toBe(200);
        // Run again, the release step has nothing left to do.
        const again = await runCli(['migrate'], { DATABASE_URL: database.url! });
        expect(again.stdout).toContain('Migrations are up to date.');
      } finally {
        await stopChildren();
        await database.close();
      }
    }, 400_000);

    it('a start on a current schema runs no DDL, and MIGRATE_ON_START=true migrates as before', async () => {
      const { handle: database, url } = await openTestDatabase();
      try {
        // The release step: the queues' tables, the analytics partitions of the coming months.
        const released = await runCli(['migrate'], { DATABASE_URL: url! }, 120_000);
        expect(released.code, released.stderr).toBe(0);
        // Every DDL statement any session runs from now on is written down.
        await database.exec(`
          create table ddl_seen (tag text, query text);
          create function note_ddl() returns event_trigger language plpgsql as $$
          begin insert into ddl_seen (tag, query) values (tg_tag, left(current_query(), 300)); end $$;
          create event trigger note_ddl on ddl_command_start execute function note_ddl();`);
        const { port } = await listeningServer(await tempDir('omni-release-'), {
          DATABASE_URL: url!,
          SAMPLE_CATALOG: 'false',
        });
        expect(await readiness(port)).toBe(200);
        await stopChildren();
        expect(await database.query('select tag, query from ddl_seen')).toEqual([]);

        // MIGRATE_ON_START=true: the start applies what is pending (here, a code file changed).
        await database.exec(`
          drop event trigger note_ddl;
          update sql_code_files set sha256 = 'changed' where name = 'db/sql/010-json-text.sql';`);
        await listeningServer(await tempDir('omni-release-'), {
          DATABASE_URL: url!,
          SAMPLE_CATALOG: 'false',
          MIGRATE_ON_START: 'true',
        });
        const [code] = await database.query<{ sha256: string }>(
          "select sha256 from sql_code_files where name = 'db/sql/010-json-text.sql'",
        );
        expect(code!.sha256).not.toBe('changed');
      } finally {
        await stopChildren();
        await database.close();
      }
    }, 120_000);
  },
);
