import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/db/connection/embedded-lock.ts';
import {
  migratedDataDir,
  removeTempDirs,
  runCli,
  startServer,
  stopChildren,
  tempDir,
} from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

describe('acquireDataDirLock', () => {
  it('refuses a second holder of the same DATA_DIR with DataDirLockedError', async () => {
    const dir = await tempDir();
    const release = await acquireDataDirLock(dir);
    try {
      const second = acquireDataDirLock(dir);
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(`DATA_DIR=${dir}`);
    } finally {
      await release();
    }
  });

  it('takes over at once the lock of a holder that was killed, not of one that runs', async () => {
    const dir = await tempDir();
    const crashed = await acquireDataDirLock(dir);
    // A holder on this machine whose process is gone (a pid no process has), as after kill -9.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(path.join(dir, '.lock-owner'), JSON.stringify({ pid: dead, host: hostname() }));
    const taken = await acquireDataDirLock(dir);
    // The new holder wrote itself as the owner: a third process is refused while it runs.
    await expect(acquireDataDirLock(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await taken();
    await crashed().catch(() => {});
  });

  it('grants the DATA_DIR again once the holder has released it', async () => {
    const dir = await tempDir();
    await (
      await acquireDataDirLock(dir)
    )();
    const again = await acquireDataDirLock(dir);
    await again();
  });

  it('locks each DATA_DIR on its own', async () => {
    const [one, two] = [await tempDir(), await tempDir()];
    const releases = [await acquireDataDirLock(one), await acquireDataDirLock(two)];
    for (const release of releases) await release();
  });
});

describe('a server whose DATA_DIR lock is lost', () => {
  it('logs it and stops (exit 1) instead of serving from files it no longer owns', async () => {
    const dataDir = await migratedDataDir();
    const { server } = await startServer(dataDir);
    // The lock is a directory that the holder touches every two seconds.
    await rm(path.join(dataDir, '.lock'), { recursive: true, force: true });
    const exit = await server.waitForExit(30_000);
    expect(exit.code).toBe(1);
    const lost = await server.waitForLog(/lock on DATA_DIR=.* was lost/);
    expect(lost.level).toBe(60);
  }, 60_000);
});

describe('a second process on the DATA_DIR of a running server', () => {
  it('exits 1 naming the DATA_DIR in use, and touches nothing', async () => {
    const dataDir = await migratedDataDir();
    const { server, port } = await startServer(dataDir);

    const list = await runCli(['tenant', 'list'], { DATA_DIR: dataDir });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`DATA_DIR=${dataDir}`);
    expect(list.stderr).toMatch(/in use/);
    expect(list.stdout).toBe('');

    const create = await runCli(['tenant', 'create', 'intruder', '--json'], {
      DATA_DIR: dataDir,
    });
    expect(create.code).toBe(1);
    expect(create.stderr).toContain(`DATA_DIR=${dataDir}`);
    expect(create.stdout).toBe('');

    // The server goes on serving from its database.
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ Status: 'ready', Database: 'pglite' });

    server.child.kill('SIGTERM');
    expect((await server.waitForExit()).code).toBe(0);

    const after = await runCli(['tenant', 'list', '--json'], { DATA_DIR: dataDir });
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
    const tenants = JSON.parse(after.stdout) as { Tenant: string }[];
    expect(tenants.map((t) => t.Tenant)).toEqual(['demo']);
  }, 120_000);
});
