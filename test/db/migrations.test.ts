import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/connection/database.ts';
import {
  bundledMigrations,
  loadMigrations,
  migrate,
  migrationDirectories,
  migrationsApplied,
  type Migration,
} from '../../src/db/schema/migrate.ts';
import { databaseUrlFor } from '../support/database-url.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.handle.close());

async function appliedVersions(): Promise<string[]> {
  const rows = await database.handle.query<{ version: string }>(
    'select version from schema_migrations order by version',
  );
  return rows.map((r) => r.version);
}

describe('schema_migrations', () => {
  it('lists every migration file checked in under src/db/migrations and src/modules/*/migrations', async () => {
    const dirs = await migrationDirectories();
    expect(dirs).toContain(path.resolve(import.meta.dirname, '../../src/db/migrations'));
    expect(dirs).toContain(
      path.resolve(import.meta.dirname, '../../src/modules/catalog/migrations'),
    );
    const files = (await Promise.all(dirs.map((dir) => readdir(dir))))
      .flat()
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    expect(await appliedVersions()).toEqual(files.map((f) => f.replace(/\.sql$/, '')));
    expect(await migrationsApplied(database.handle)).toBe(true);
  });
});

describe('loadMigrations()', () => {
  async function folders(files: Record<string, string[]>): Promise<string[]> {
    const root = await mkdtemp(path.join(tmpdir(), 'omni-migrations-'));
    const dirs: string[] = [];
    for (const [name, names] of Object.entries(files)) {
      const dir = path.join(root, name);
      await mkdir(dir);
      for (const file of names) await writeFile(path.join(dir, file), 'select 1;');
      dirs.push(dir);
    }
    return dirs;
  }

  it('orders the files of every folder into one order by version', async () => {
    const dirs = await folders({
      shared: ['0100_feed.sql', '0002_b.sql'],
      module: ['0001_a.sql', '0101_feed_of_a.sql', 'notes.md'],
    });
    try {
      expect((await loadMigrations(dirs)).map((m) => m.version)).toEqual([
        '0001_a',
        '0002_b',
        '0100_feed',
        '0101_feed_of_a',
      ]);
    } finally {
      await rm(path.dirname(dirs[0]!), { recursive: true, force: true });
    }
  });

  it('refuses two files with one version number, in one folder or two', async () => {
    const dirs = await folders({ shared: ['0100_feed.sql'], module: ['0100_webhooks.sql'] });
    try {
      await expect(loadMigrations(dirs)).rejects.toThrow(/share version 0100/);
    } finally {
      await rm(path.dirname(dirs[0]!), { recursive: true, force: true });
    }
  });

  it('refuses a file not named NNNN_name.sql', async () => {
    const dirs = await folders({ module: ['100_feed.sql'] });
    try {
      await expect(loadMigrations(dirs)).rejects.toThrow(/not named NNNN_name\.sql/);
    } finally {
      await rm(path.dirname(dirs[0]!), { recursive: true, force: true });
    }
  });
});

describe('migrate() on a migrated database', () => {
  it('applies nothing', async () => {
    const before = await appliedVersions();
    expect(await migrate(database.handle)).toEqual([]);
    expect(await appliedVersions()).toEqual(before);
  });

  it('applies nothing when two calls run at once', async () => {
    const before = await appliedVersions();
    expect(await Promise.all([migrate(database.handle), migrate(database.handle)])).toEqual([
      [],
      [],
    ]);
    expect(await appliedVersions()).toEqual(before);
  });
});

describe('migrate() with a pending migration', () => {
  it('applies it exactly once when two calls run at once', async () => {
    const pending: Migration = {
      version: '9001_test_concurrent_probe',
      script: `create table migration_probe (id integer primary key);
               insert into migration_probe (id) values (1);`,
    };
    const all = [...(await bundledMigrations()), pending];
    const results = await Promise.all([
      migrate(database.handle, all),
      migrate(database.handle, all),
    ]);
    expect(results.flat()).toEqual([pending.version]);
    expect(await database.handle.query('select id from migration_probe')).toEqual([{ id: 1 }]);
    expect((await appliedVersions()).filter((v) => v === pending.version)).toHaveLength(1);
    expect(await migrate(database.handle, all)).toEqual([]);
  });

  it('applies nothing of a call whose migration fails (one transaction)', async () => {
    const good: Migration = {
      version: '9002_test_good',
      script: 'create table migration_good (id integer primary key);',
    };
    const bad: Migration = {
      version: '9003_test_bad',
      script: 'create table migration_bad (id integer primary key); select no_such_function();',
    };
    const before = await appliedVersions();
    await expect(
      migrate(database.handle, [...(await bundledMigrations()), good, bad]),
    ).rejects.toThrow();
    expect(await appliedVersions()).toEqual(before);
    const tables = await database.handle.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_name in ('migration_good', 'migration_bad')`,
    );
    expect(tables).toEqual([]);
  });
});

describe('migrate() on an empty PostgreSQL database from two instances at once', () => {
  const source = inject('testDatabase');

  it.runIf(source.engine === 'postgres')('applies every migration once', async () => {
    if (source.engine !== 'postgres') return;
    const name = `omni_empty_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: source.url });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template template0`);
      // Two instances as the server opens them: each its own pool on the same database.
      const options = { databaseUrl: databaseUrlFor(source.url, name), dataDir: '/nonexistent' };
      const instances = [
        await openDatabase({ ...options, poolSize: 1 }),
        await openDatabase({ ...options, poolSize: 1 }),
      ];
      try {
        const results = await Promise.all(instances.map((instance) => migrate(instance)));
        const expected = (await bundledMigrations()).map((m) => m.version);
        expect(results.flat().sort()).toEqual(expected);
        expect(results.some((applied) => applied.length === 0)).toBe(true);
        expect(await migrationsApplied(instances[0]!)).toBe(true);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
