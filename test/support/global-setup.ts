// Migrates one database per test run and hands its snapshot to every test file: a PGlite data
// dump, or (with TEST_DATABASE_URL) a PostgreSQL template database to copy per file — on a Citus
// coordinator, a template database on every node of the cluster (citus-cluster.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGLITE_EXTENSIONS, wrapPglite } from '../../src/db/connection/embedded-database.ts';
import { wrapPool, type DatabaseHandle } from '../../src/db/connection/database.ts';
import { migrateDatabase } from '../../src/migrate-database.ts';
import { ensurePartitions as ensureAnalyticsPartitions } from '../../src/modules/analytics/analytics-partitions.ts';
import { ensureHistoryPartitions } from '../../src/modules/history/history-partitions.ts';
import {
  citusWorkers,
  closeClusterDatabase,
  createClusterDatabase,
  dropClusterDatabase,
  type ClusterNode,
} from './citus-cluster.ts';
import { databaseUrlFor } from './database-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase:
      | { engine: 'pglite'; snapshotPath: string }
      | {
          engine: 'postgres';
          url: string;
          template: string;
          /** The workers when `url` is a Citus coordinator (every database lives on each). */
          citusWorkers?: ClusterNode[];
        };
  }
}

/**
 * The migrations and what the release step adds to them (the months' partitions ahead), so that a
 * file's server starts with no DDL to run: on Citus each partition made is a table on every node.
 */
async function migrateTemplate(database: DatabaseHandle): Promise<void> {
  await migrateDatabase(database);
  await ensureAnalyticsPartitions(database);
  await ensureHistoryPartitions(database);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const workers = await citusWorkers(url);
    if (workers) return setupCitus(project, url, workers);
    const template = `omni_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const pool = new pg.Pool({ connectionString: databaseUrlFor(url, template), max: 1 });
    await migrateTemplate(wrapPool(pool, databaseUrlFor(url, template)));
    await pool.end();
    project.provide('testDatabase', { engine: 'postgres', url, template });
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'omni-test-'));
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const database = wrapPglite(client);
  await migrateTemplate(database);
  const snapshot = await client.dumpDataDir('none');
  const snapshotPath = path.join(dir, 'migrated.tar');
  await writeFile(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
  await database.close();
  project.provide('testDatabase', { engine: 'pglite', snapshotPath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

async function setupCitus(
  project: TestProject,
  url: string,
  workers: ClusterNode[],
): Promise<() => Promise<void>> {
  const template = `omni_template_${process.pid}`;
  await dropClusterDatabase(url, workers, template);
  await createClusterDatabase(url, workers, template);
  // Four shards a table instead of Citus's 32: every file copies the template on every node, and
  // the routing a test sees is the same (docs/operations.md, "Citus": an operator's choice).
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`alter database ${template} set citus.shard_count = 4`);
  await admin.end();
  const templateUrl = databaseUrlFor(url, template);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 1 });
  await migrateTemplate(wrapPool(pool, templateUrl));
  await pool.end();
  await closeClusterDatabase(url, workers, template);
  project.provide('testDatabase', { engine: 'postgres', url, template, citusWorkers: workers });
  return () => dropClusterDatabase(url, workers, template);
}
