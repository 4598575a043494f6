// The real CLI as child processes (`node src/main.ts …`), for the operator-surface tests. Every
// child runs on the embedded database (PGlite) in its own DATA_DIR, never on DATABASE_URL, and
// every wait is bounded. Call stopChildren() after each test and removeTempDirs() after all.
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { createServices } from '../../src/module-wiring.ts';
import { loadConfig } from '../../src/config.ts';
import { PGLITE_EXTENSIONS, wrapPglite } from '../../src/db/connection/embedded-database.ts';
import { migrateDatabase } from '../../src/migrate-database.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
const MAIN = path.join(PROJECT_ROOT, 'src/main.ts');

/** Variables of the server's configuration: a child sees only those a test gives it. */
const CONFIG_VARIABLES = [
  'PORT',
  'MIGRATE_ON_START',
  'SCHEMA_WAIT_SECONDS',
  'HOST',
  'API_HOST',
  'DEFAULT_TENANT',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_MONITOR_URL',
  'TEST_DATABASE_URL',
  'LOG_LEVEL',
  'TOKEN_TTL_SECONDS',
  'INTEGRATION_HOST',
  'PROVISIONING_DELAY_SECONDS',
  'PUBLIC_SCHEME',
  'PUBLIC_PORT',
  'JSON_BODY_LIMIT_BYTES',
  'ASSET_MAX_BYTES',
  'S3_URL',
  'CORS_ORIGINS',
  'APP_RATE_LIMITS',
  'REDIS_URL',
  'IDEMPOTENCY_KEY_TTL_SECONDS',
  'IMPORT_MAX_BYTES',
  'CATALOG_JOB_LEASE_SECONDS',
  'JOB_POLLING_INTERVAL_SECONDS',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_TIMEOUT_SECONDS',
  'WEBHOOK_POLLING_INTERVAL_MS',
  'WEBHOOK_CONCURRENCY',
  'SAMPLE_CATALOG',
];

/** Where children keep compiled modules, as `npm start` does: a child then starts in about half
 *  the time, as it strips the TypeScript types of the app's modules only once per run. */
const COMPILE_CACHE = path.join(PROJECT_ROOT, 'node_modules/.cache/node-compile');

export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { NODE_COMPILE_CACHE: COMPILE_CACHE, ...process.env };
  for (const name of CONFIG_VARIABLES) delete inherited[name];
  // A first start seeds no sample catalog unless a test asks for it (test/modules/sample).
  return { ...inherited, SAMPLE_CATALOG: 'false', ...env };
}

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills every child still running (SIGKILL) and waits until each has gone. */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export async function tempDir(prefix = 'omni-proc-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all([...tempDirs].map((dir) => rm(dir, { recursive: true, force: true })));
  tempDirs.clear();
  templates.clear();
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Runs `node src/main.ts <args>` to its end (killed, and rejected, after timeoutMs). */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(process.execPath, [MAIN, ...args], { cwd: PROJECT_ROOT, env: childEnv(env) }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `omni ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A `serve` process: its stdout lines as they come, and its exit. */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly listeners = new Set<() => void>();
  private partial = '';

  constructor(env: Record<string, string>, args: string[] = []) {
    this.child = track(
      spawn(process.execPath, [MAIN, 'serve', ...args], { cwd: PROJECT_ROOT, env: childEnv(env) }),
    );
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        resolve({ code, signal });
        this.notify();
      });
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      const text = this.partial + chunk.toString('utf8');
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts);
      this.notify();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first stdout line that matches; rejects if the process exits first or on timeout. */
  waitForLine(matches: (line: string) => boolean, timeoutMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const line = this.lines.find(matches);
        if (line !== undefined) return finish(() => resolve(line));
        if (!this.running) {
          return finish(() =>
            reject(new Error(`server exited before the line came:\n${this.output()}`)),
          );
        }
      };
      const timer = setTimeout(
        () =>
          finish(() => reject(new Error(`no such line within ${timeoutMs} ms:\n${this.output()}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** The log record (JSON line) whose msg matches. */
  async waitForLog(msg: RegExp, timeoutMs = 60_000): Promise<Record<string, unknown>> {
    const recordOf = (line: string): Record<string, unknown> | undefined => {
      if (!line.startsWith('{')) return undefined;
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    };
    const line = await this.waitForLine((l) => {
      const text = recordOf(l)?.msg;
      return typeof text === 'string' && msg.test(text);
    }, timeoutMs);
    return recordOf(line)!;
  }

  /** Waits for the exit, bounded; kills the process if it does not come. */
  async waitForExit(timeoutMs = 30_000): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`server did not exit within ${timeoutMs} ms:\n${this.output()}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  output(): string {
    return `${[...this.lines, this.partial].join('\n')}\n--- stderr ---\n${this.stderr}`;
  }
}

export interface StartedServer {
  server: ServerProcess;
  port: number;
  /** The demo tenant's management app, as the server printed it on its first start. */
  demo: { appId: string; secret: string; curlLine: string };
}

/** Starts `serve` on dataDir (PORT=0, loopback only) and waits until it listens. */
export async function listeningServer(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<{ server: ServerProcess; port: number }> {
  const server = new ServerProcess(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    args,
  );
  const listening = await server.waitForLog(/^Server listening at /);
  return { server, port: Number(/:(\d+)$/.exec(String(listening.msg))?.[1]) };
}

/**
 * Starts `serve` on an embedded database in dataDir (PORT=0, loopback only) and waits until it
 * listens and has printed the demo tenant's credentials (first start on that DATA_DIR).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<StartedServer> {
  const { server, port } = await listeningServer(dataDir, env, args);
  const curlLine = (await server.waitForLine((l) => l.trim().startsWith('TOKEN=$(curl'))).trim();
  const field = (name: string) => {
    const line = server.lines.find((l) => l.trim().startsWith(`${name}:`));
    if (!line) throw new Error(`the server printed no ${name}:\n${server.output()}`);
    return line
      .trim()
      .slice(name.length + 1)
      .trim();
  };
  return {
    server,
    port,
    demo: { appId: field('ApplicationId'), secret: field('ApplicationSecret'), curlLine },
  };
}

const templates = new Map<string, Promise<string>>();

async function migratedDump(): Promise<Blob> {
  const source = inject('testDatabase');
  if (source.engine === 'pglite') return new Blob([await readFile(source.snapshotPath)]);
  // The run's database is PostgreSQL; the children still need a migrated embedded one.
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  await migrateDatabase(wrapPglite(client));
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}

async function buildTemplate(tenants: string[]): Promise<string> {
  const dir = await tempDir('omni-template-');
  const client = new PGlite(path.join(dir, 'pgdata'), {
    loadDataDir: await migratedDump(),
    extensions: PGLITE_EXTENSIONS,
  });
  await client.waitReady;
  const database = wrapPglite(client);
  const services = createServices(loadConfig({ DATA_DIR: dir }), database);
  for (const name of tenants) {
    await services.tenants.create(name);
  }
  await database.close();
  return dir;
}

/**
 * A new DATA_DIR holding an embedded database that is already migrated (as `omni migrate`
 * leaves it), with the given tenants: a copy of a template made once per test file, so that
 * each child starts in about a second instead of migrating a new database.
 */
export async function migratedDataDir(tenants: string[] = []): Promise<string> {
  const key = tenants.join(',');
  let template = templates.get(key);
  if (!template) {
    template = buildTemplate(tenants);
    templates.set(key, template);
  }
  const dir = await tempDir('omni-data-');
  await cp(await template, dir, { recursive: true });
  return dir;
}
