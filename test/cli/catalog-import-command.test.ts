// `omni catalog import <tenant> <file>`: the import job run in the CLI's process on the embedded
// database, its summary, the failed records printed, and its exit code.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection/database.ts';
import { loadConfig } from '../../src/config.ts';
import { migratedDataDir, removeTempDirs, runCli, stopChildren } from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const TIMEOUT = 120_000;

async function itemTitles(dataDir: string): Promise<string[]> {
  const database = await openDatabase(loadConfig({ DATA_DIR: dataDir }));
  try {
    const rows = await database.query<{ title: string }>(
      "select i.title from items i join tenants t on t.id = i.tenant_id where t.name = 'shop' order by i.id",
    );
    return rows.map((r) => r.title);
  } finally {
    await database.close();
  }
}

describe('catalog import <tenant> <file>', () => {
  it(
    'imports a CSV file, creating what it names with --create-missing, and exits 0',
    async () => {
      const dataDir = await migratedDataDir(['shop']);
      const file = path.join(dataDir, 'items.csv');
      await writeFile(file, 'SKU,Title,Brand\nA,Lamp,Acme\nB,"Desk, oak",Acme\n');
      const result = await runCli(['catalog', 'import', 'shop', file, '--create-missing'], {
        DATA_DIR: dataDir,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        /^Import 1: Succeeded\. .*100\.0% read 2, written 2, failed 0/m,
      );
      expect(await itemTitles(dataDir)).toEqual(['Lamp', 'Desk, oak']);
    },
    TIMEOUT,
  );

  it(
    'prints the failed records by line and exits 1 when the import fails (RejectAll)',
    async () => {
      const dataDir = await migratedDataDir(['shop']);
      const file = path.join(dataDir, 'items.jsonl');
      await writeFile(file, '{"Title":"Good"}\n{"Title":"Bad","Brand":"Missing"}\nnot json\n');
      const result = await runCli(['catalog', 'import', 'shop', file], { DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/Import 1: Failed\./);
      expect(result.stdout).toMatch(/"Line":2,[^\n]*"Status":"Failed"/);
      expect(result.stdout).toMatch(/"Line":3,[^\n]*"Status":"Failed"/);
      expect(await itemTitles(dataDir)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'refuses an unknown tenant or format with a usage message',
    async () => {
      const dataDir = await migratedDataDir(['shop']);
      const file = path.join(dataDir, 'items.jsonl');
      await writeFile(file, '{"Title":"Good"}\n');
      const unknown = await runCli(['catalog', 'import', 'nobody', file], { DATA_DIR: dataDir });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Tenant "nobody" does not exist.');
      const format = await runCli(['catalog', 'import', 'shop', file, '--format', 'xml'], {
        DATA_DIR: dataDir,
      });
      expect(format.code).toBe(1);
      expect(format.stderr).toContain('--format must be jsonl or csv.');
    },
    TIMEOUT,
  );
});
