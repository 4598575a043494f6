// The bench's process plumbing: free ports, plain HTTP calls, waiting for a server to answer,
// stopping it, and running a node script for its output.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export function call(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

export async function waitFor(port: number, urlPath: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      if ((await call(port, 'GET', urlPath, {})).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${urlPath}`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** The node flags `npm start` gives the server (package.json): the bench measures the same. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];

/** Starts the server as `npm start` does, and answers once it is ready (stopped if it never is). */
export async function startServer(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(port, '/health/ready', child);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return child;
}

/** A new tenant made with the CLI (`omni tenant create`), and its management app's credentials. */
export async function createTenant(
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ApplicationId: string; ApplicationSecret: string }> {
  return JSON.parse(await runNode(['src/main.ts', 'tenant', 'create', name, '--json'], env)) as {
    ApplicationId: string;
    ApplicationSecret: string;
  };
}

/** A client-credentials access token of an app on a tenant's host. */
export async function clientToken(
  port: number,
  host: string,
  appId: string,
  secret: string,
): Promise<string> {
  const response = await call(
    port,
    'POST',
    '/oauth/token',
    {
      host,
      authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    'grant_type=client_credentials',
  );
  return (JSON.parse(response.body) as { access_token: string }).access_token;
}

/**
 * The environment of a server (and of the CLI commands that seed it) for a bench: its port and
 * data folder on loopback, on PostgreSQL when BENCH_DATABASE_URL is set, else embedded.
 */
export function serverEnv(
  port: number,
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    DATABASE_URL: databaseUrl ?? '',
    // A bench measures its own data: a first start's sample catalog would seed beside it.
    SAMPLE_CATALOG: 'false',
    // A bench's database is its own: its server brings it to its version (on PostgreSQL too).
    MIGRATE_ON_START: 'true',
    ...extra,
  };
}

/** A server on its own port and data folder with a new tenant, and its management app's token. */
export interface TenantServer {
  port: number;
  /** The tenant's name. */
  name: string;
  /** The tenant's host name (the Host header of its calls). */
  host: string;
  token: string;
  /** The server process's id (its CPU time: process-cpu.ts). */
  pid: number;
  /** Stops the server and removes its data folder. */
  stop: () => Promise<void>;
}

/** Starts a server (on PostgreSQL when BENCH_DATABASE_URL is set) and makes a tenant on it. */
export async function startTenantServer(prefix: string): Promise<TenantServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), `omni-${prefix}-`));
  const env = serverEnv(port, dataDir);
  const server = await startServer(port, env);
  const stopAll = async () => {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const name = `${prefix.replace(/[^a-z]/g, '')}${Date.now().toString(36)}`;
    const app = await createTenant(name, env);
    const host = `${name}.localhost`;
    const token = await clientToken(port, host, app.ApplicationId, app.ApplicationSecret);
    return { port, name, host, token, pid: server.pid!, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
