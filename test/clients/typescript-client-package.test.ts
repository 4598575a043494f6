// The client package as its README says to install it: `npm pack -w @omnichannel/management-client`
// makes a tarball that holds every file its package.json points at, `npm install <tarball>` in a
// new folder gives a package that Node imports and TypeScript types from that folder alone, the
// README's code compiles there as written, and a script there lists a tenant's apps with it.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApi } from '../support/listening-api.ts';
import type { TestApi, TestTenant } from '../support/test-api.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let work: string;
let project: string;
let tarball: string;

/** npm as the machine has it, with the node that runs this test first on PATH. */
async function npm(args: string[], cwd: string): Promise<string> {
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const { stdout } = await run('npm', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'omni-client-package-'));
  const packed = JSON.parse(
    await npm(
      ['pack', '-w', '@omnichannel/management-client', '--pack-destination', work, '--json'],
      ROOT,
    ),
  ) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, packed[0]!.filename);
  project = path.join(work, 'project');
  await run('mkdir', ['-p', project]);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'integrator', private: true, type: 'module' }),
  );
  // The dependency (openapi-fetch) comes from npm's cache when it has it, as on any machine.
  await npm(['install', '--prefer-offline', '--no-package-lock', tarball], project);
}, 180_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('holds every file its package.json points at, and no source', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    const manifest = JSON.parse(await readFile(path.join(CLIENT, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
    };
    const targets = Object.values(manifest.exports).flatMap((conditions) =>
      Object.values(conditions),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(files, target).toContain(target.replace(/^\.\//, ''));
    expect(files).toContain('README.md');
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([]);
  });

  it('installs into a new folder, where TypeScript compiles the README’s code as written', async () => {
    await copyFile(path.join(CLIENT, 'examples/readme.ts'), path.join(project, 'readme.ts'));
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          // Node's types for the README's readFile; nothing else comes from the repository.
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        files: ['readme.ts'],
      }),
    );
    const compiled = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch(
      (failure: { stdout?: string }) => failure,
    );
    expect('stdout' in compiled ? compiled.stdout : '').toBe('');
  }, 120_000);
});

describe('the installed client at work', () => {
  let api: TestApi;
  let acme: TestTenant;
  let port: number;
  beforeAll(async () => {
    // A client whose base URL is the server's own address: DEFAULT_TENANT serves acme on it.
    const started = await startListeningApi({ DEFAULT_TENANT: 'acme' });
    api = started.api;
    port = started.port;
    acme = await api.createTenant('acme');
  });
  afterAll(() => api?.close());

  it('lists a tenant’s apps, pages, and keeps an ETag, from a script in the new folder', async () => {
    await writeFile(
      path.join(project, 'first-day.mjs'),
      `import { createManagementClient, ok, pages, withEtag, ifChanged, ApiError } from '@omnichannel/management-client';
const [baseUrl, clientId, clientSecret] = process.argv.slice(2);
const client = createManagementClient({ baseUrl, auth: { clientId, clientSecret } });
const apps = [];
for await (const app of pages((range) => client.GET('/management/oauth/apps', { params: { query: range } }))) apps.push(app.ApplicationId);
const path = { params: { path: { applicationId: clientId } } };
const { etag } = await withEtag(client.GET('/management/oauth/apps/{applicationId}', path));
const unchanged = await ifChanged(client.GET('/management/oauth/apps/{applicationId}', { params: { path: { applicationId: clientId }, header: { 'If-None-Match': etag } } }));
let refused;
try { await ok(client.GET('/private/catalog/item/{id}', { params: { path: { id: 999999 } } })); } catch (error) { refused = error instanceof ApiError ? error.code : String(error); }
console.log(JSON.stringify({ apps, etag, unchanged: unchanged === undefined, refused }));
`,
    );
    const { stdout } = await run(
      process.execPath,
      ['first-day.mjs', `http://127.0.0.1:${port}`, acme.appId, acme.secret],
      { cwd: project },
    );
    const result = JSON.parse(stdout) as {
      apps: string[];
      etag: string;
      unchanged: boolean;
      refused: string;
    };
    expect(result.apps).toEqual([acme.appId]);
    expect(result.etag).toMatch(/^"/);
    expect(result.unchanged).toBe(true);
    expect(result.refused).toBe('NotFound');
  });
});
