// An integrator's first request, from clients other than curl: `npm start` prints the base URL
// and Host header that Node.js and Python use (their resolvers do not know demo.localhost), and
// those lines work as printed; with DEFAULT_TENANT the server's own address is the tenant for
// every client, fetch included; on PostgreSQL the first start makes the demo tenant as the
// embedded database's does, once across instances that start together, and fills it with the
// sample catalog (the embedded first start's: test/cli/sample-commands.test.ts).
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import {
  childEnv,
  listeningServer,
  migratedDataDir,
  removeTempDirs,
  startServer,
  stopChildren,
  tempDir,
} from '../support/processes.ts';
import { openTestDatabase } from '../support/test-database.ts';

afterEach(stopChildren);
afterAll(removeTempDirs);

/** The value after `label` on the line that has it. */
function printed(lines: string[], label: RegExp): string {
  for (const line of lines) {
    const match = label.exec(line);
    if (match?.[1]) return match[1];
  }
  throw new Error(`the server printed no ${String(label)}:\n${lines.join('\n')}`);
}

// Python's standard library only: what an integrator's first script looks like.
const PYTHON = `
import base64, json, sys, urllib.request, urllib.error
base, host, app_id, secret = sys.argv[1:5]
basic = base64.b64encode(f"{app_id}:{secret}".encode()).decode()
def call(path, headers, data=None):
    req = urllib.request.Request(base + path, data=data, headers={"Host": host, **headers})
    try:
        with urllib.request.urlopen(req) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
status, _, body = call("/oauth/token", {"Authorization": "Basic " + basic,
    "Content-Type": "application/x-www-form-urlencoded"}, b"grant_type=client_credentials")
token = json.loads(body)["access_token"]
bearer = {"Authorization": "Bearer " + token, "Accept": "application/vnd.xomni.api-v4-0"}
status, _, body = call("/management/oauth/apps", bearer)
apps = json.loads(body)
status, headers, body = call("/management/oauth/apps/" + app_id, bearer)
etag = headers["ETag"]
again, _, rest = call("/management/oauth/apps/" + app_id, {**bearer, "If-None-Match": etag})
print(json.dumps({"apps": apps["TotalCount"], "fetched": status, "etag": etag,
    "conditional": again, "rest": len(rest)}))
`;

function runPython(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', PYTHON, ...args], { env: childEnv({}) });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`python3 exited ${code}: ${err}`)),
    );
  });
}

/** Node's http module, as axios and most Node clients use it: a Host header of its own. */
function nodeHttp(
  base: string,
  host: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: body ? 'POST' : 'GET', headers: { host, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('npm start: the first request from Node.js and Python', () => {
  it('prints the base URL and Host header they use, which work as printed', async () => {
    // A migrated DATA_DIR without tenants: the first start, without migrating a new database.
    const started = await startServer(await migratedDataDir());
    const { lines } = started.server;
    const base = printed(lines, /base URL (http:\/\/127\.0\.0\.1:\d+) with the header/);
    const host = printed(lines, /^\s+Host: (\S+)/);
    expect(base).toBe(`http://127.0.0.1:${started.port}`);
    expect(host).toBe(`demo.localhost:${started.port}`);
    expect(lines.join('\n')).toContain(`DEFAULT_TENANT=demo`);

    const python = JSON.parse(
      await runPython([base, host, started.demo.appId, started.demo.secret]),
    ) as { apps: number; fetched: number; etag: string; conditional: number; rest: number };
    expect(python).toEqual({ apps: 1, fetched: 200, etag: python.etag, conditional: 304, rest: 0 });

    const basic = Buffer.from(`${started.demo.appId}:${started.demo.secret}`).toString('base64');
    const token = await nodeHttp(
      base,
      host,
      '/oauth/token',
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials',
    );
    expect(token.status, token.body).toBe(200);
    const { access_token } = JSON.parse(token.body) as { access_token: string };
    const apps = await nodeHttp(base, host, '/management/oauth/apps', {
      authorization: `Bearer ${access_token}`,
    });
    expect(apps.status, apps.body).toBe(200);
  }, 120_000);

  it('with DEFAULT_TENANT=demo, says the server’s own address is the tenant, for fetch too', async () => {
    const started = await startServer(await migratedDataDir(), { DEFAULT_TENANT: 'demo' });
    const base = printed(
      started.server.lines,
      /From Node\.js.*: (http:\/\/127\.0\.0\.1:\d+) is tenant "demo"/,
    );
    const basic = Buffer.from(`${started.demo.appId}:${started.demo.secret}`).toString('base64');
    // Node's fetch sets Host from the URL itself; no Host header is needed now.
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const apps = await fetch(`${base}/management/oauth/apps`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(apps.status).toBe(200);
    // The document served names that address first.
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      servers: { url: string; variables: Record<string, { default: string }> }[];
    };
    expect(document.servers[0]!.url).toBe('{scheme}://{host}');
    expect(document.servers[0]!.variables.host!.default).toBe(`localhost:${started.port}`);
  }, 120_000);
});

const source = inject('testDatabase');
describe.skipIf(source.engine === 'pglite')(
  'npm start on a PostgreSQL database without tenants',
  () => {
    it('makes the demo tenant and prints it once, however many instances start together', async () => {
      const database = await openTestDatabase();
      try {
        const env = { DATABASE_URL: database.url! };
        const [first, second] = await Promise.all([
          listeningServer(await tempDir('omni-pg-'), env),
          listeningServer(await tempDir('omni-pg-'), env),
        ]);
        const [tenants] = await database.handle.query<{ names: string[] }>(
          'select array_agg(name) as names from tenants',
        );
        expect(tenants!.names).toEqual(['demo']);
        // Each instance knew before it listened whether it made the tenant; the one that did
        // prints the credentials after it listens (and one more query): wait for their last line.
        await Promise.any(
          [first, second].map(({ server }) =>
            server.waitForLine((line) => line.trim().startsWith('TOKEN=$(curl'), 30_000),
          ),
        );
        const announced = [first, second].filter(({ server }) =>
          server.lines.some((line) => line.includes('Created tenant "demo"')),
        );
        expect(announced).toHaveLength(1);
        const { server, port } = announced[0]!;
        const appId = printed(server.lines, /ApplicationId:\s+(\S+)/);
        const secret = printed(server.lines, /ApplicationSecret:\s+(\S+)/);
        // Either instance serves it with the printed credentials.
        for (const instance of [first, second]) {
          const token = await nodeHttp(
            `http://127.0.0.1:${instance.port}`,
            `demo.localhost:${port}`,
            '/oauth/token',
            {
              authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            'grant_type=client_credentials',
          );
          expect(token.status, token.body).toBe(200);
        }
        await stopChildren();
        // A later start on the same database makes nothing and prints no credentials.
        const later = await listeningServer(await tempDir('omni-pg-'), env);
        expect(later.server.lines.join('\n')).not.toContain('Created tenant');
      } finally {
        await stopChildren();
        await database.handle.close();
      }
    }, 120_000);
  },
);

describe.skipIf(source.engine === 'pglite')(
  'npm start on a PostgreSQL database without tenants: the sample catalog',
  () => {
    it('fills the demo tenant, whose search, typo, facets and nearest store answer from it', async () => {
      const database = await openTestDatabase();
      try {
        const { server, port } = await listeningServer(await tempDir('omni-pg-'), {
          DATABASE_URL: database.url!,
          SAMPLE_CATALOG: 'true',
        });
        const ready = await server.waitForLine(
          (line) => line.includes('The sample catalog is ready in'),
          150_000,
        );
        expect(ready).toMatch(/200 items/);
        expect(ready).toContain('10 stores');
        const [counts] = await database.handle.query<{ items: number; stores: number }>(
          `select (select count(*)::int from items i join tenants t on t.id = i.tenant_id
                    where t.name = 'demo') as items,
                  (select count(*)::int from stores s join tenants t on t.id = s.tenant_id
                    where t.name = 'demo') as stores`,
        );
        expect(counts).toEqual({ items: 200, stores: 10 });

        const appId = printed(server.lines, /ApplicationId:\s+(\S+)/);
        const secret = printed(server.lines, /ApplicationSecret:\s+(\S+)/);
        const base = `http://127.0.0.1:${port}`;
        const host = `demo.localhost:${port}`;
        const token = await nodeHttp(
          base,
          host,
          '/oauth/token',
          {
            authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          'grant_type=client_credentials',
        );
        expect(token.status, token.body).toBe(200);
        const bearer = {
          authorization: `Bearer ${(JSON.parse(token.body) as { access_token: string }).access_token}`,
        };
        const call = async <T>(path: string, body?: object): Promise<T> => {
          const headers = body ? { ...bearer, 'content-type': 'application/json' } : bearer;
          const answer = await nodeHttp(base, host, path, headers, body && JSON.stringify(body));
          expect(answer.status, answer.body).toBe(200);
          return JSON.parse(answer.body) as T;
        };

        const word = await call<{ TotalCount: number; Results: { Title: string }[] }>(
          '/private/catalog/items/search?q=lantern&take=3',
        );
        expect(word.TotalCount).toBeGreaterThan(3);
        for (const item of word.Results) expect(item.Title.toLowerCase()).toContain('lantern');
        const { SearchResult: typo } = await call<{
          SearchResult: {
            Items: { Title: string }[];
            StaticNavigation: { Brands: unknown[] };
          };
        }>('/private/catalog/items', {
          Query: 'lanturn',
          Take: 3,
          IncludeStaticNavigation: true,
        });
        expect(typo.Items.length).toBe(3);
        for (const item of typo.Items) expect(item.Title.toLowerCase()).toContain('lantern');
        expect(typo.StaticNavigation.Brands.length).toBeGreaterThan(0);
        const berlin = await call<{ Data: { DeviceId: string }[] }>(
          '/company/stores/13.40;52.52/logicaldevices',
        );
        expect(berlin.Data.map((device) => device.DeviceId).sort()).toEqual([
          'sample-berlin-kiosk-app',
          'sample-berlin-tablet-app',
        ]);
      } finally {
        await stopChildren();
        await database.handle.close();
      }
    }, 180_000);
  },
);
