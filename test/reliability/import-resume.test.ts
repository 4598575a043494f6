// kill -9 in the middle of a catalog import, then a restart on the same database: the import
// resumes after its last committed chunk and ends with exact counts, every record settled once
// (no row is written twice).
import { afterAll, afterEach, expect, it } from 'vitest';
import { bearerCall, clientToken, type HttpAnswer } from '../support/http-call.ts';
import {
  listeningServer,
  migratedDataDir,
  removeTempDirs,
  runCli,
  stopChildren,
} from '../support/processes.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const RECORDS = 8_000;
const FAILING = RECORDS / 1000; // every 1000th record has no Title
let database: TestDatabase | undefined;

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
  await database?.handle.close();
});

interface Job {
  Id: number;
  State: string;
  RowsRead: number;
  RowsWritten: number;
  RowsFailed: number;
}

it('resumes an import killed with -9 after its last committed chunk, with exact counts', async () => {
  const dataDir = await migratedDataDir();
  if (process.env.TEST_DATABASE_URL) database = await openTestDatabase();
  const env: Record<string, string> = {
    ...(database?.url ? { DATABASE_URL: database.url } : {}),
    CATALOG_JOB_LEASE_SECONDS: '2',
    JOB_POLLING_INTERVAL_SECONDS: '1',
  };
  const created = await runCli(['tenant', 'create', 'resume', '--json'], {
    DATA_DIR: dataDir,
    ...env,
  });
  expect(created.code, created.stderr).toBe(0);
  const app = JSON.parse(created.stdout) as { ApplicationId: string; ApplicationSecret: string };
  const first = await listeningServer(dataDir, env);
  let port = first.port;
  const host = () => `resume.localhost:${port}`;
  const token = await clientToken(port, host(), app.ApplicationId, app.ApplicationSecret);
  const call = (method: string, path: string, body?: string, type?: string) =>
    bearerCall(port, host(), token, method, path, body, type);
  const json = <T>(answer: HttpAnswer) => JSON.parse(answer.body.toString()) as T;
  const job = async (id: number) => json<Job>(await call('GET', `/private/catalog/imports/${id}`));
  const waitFor = async (id: number, until: (j: Job) => boolean, seconds: number) => {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const current = await job(id);
      if (until(current)) return current;
      if (Date.now() > deadline) throw new Error(`import still ${JSON.stringify(current)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const file =
    Array.from({ length: RECORDS }, (_, i) =>
      JSON.stringify(
        i % 1000 === 999
          ? { SKU: `R-${i}` }
          : { SKU: `R-${i}`, Title: `Resumed ${i}`, Tags: [{ Name: `Tag ${i % 7}` }] },
      ),
    ).join('\n') + '\n';
  const started = await call(
    'POST',
    '/private/catalog/imports?errorPolicy=SkipFailedRows&createMissing=true',
    file,
    'application/x-ndjson',
  );
  expect(started.status, started.text).toBe(202);
  const { Id } = json<Job>(started);

  // Killed once a few chunks are in and the job is still running.
  const before = await waitFor(Id, (j) => j.RowsRead >= 2000, 120);
  expect(before.State).toBe('Running');
  first.server.child.kill('SIGKILL');
  await first.server.exited;

  port = (await listeningServer(dataDir, env)).port;
  const after = await waitFor(Id, (j) => j.State !== 'Running' && j.State !== 'Queued', 300);
  expect(after).toMatchObject({
    State: 'Succeeded',
    RowsRead: RECORDS,
    RowsWritten: RECORDS - FAILING,
    RowsFailed: FAILING,
  });
  const items = json<{ TotalCount: number }>(await call('GET', '/private/catalog/items?take=1'));
  expect(items.TotalCount).toBe(RECORDS - FAILING);
  const results = (await call('GET', `/private/catalog/imports/${Id}/results`)).text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { Line: number; Status: string; ItemId?: number });
  expect(results.map((r) => r.Line)).toEqual(Array.from({ length: RECORDS }, (_, i) => i + 1));
  expect(results.filter((r) => r.Status === 'Failed').map((r) => r.Line)).toEqual(
    Array.from({ length: FAILING }, (_, k) => (k + 1) * 1000),
  );
  const ids = results.flatMap((r) => (r.ItemId ? [r.ItemId] : []));
  expect(new Set(ids).size).toBe(RECORDS - FAILING);
  console.log(
    `import resume: killed at ${before.RowsRead} records read, ${before.RowsWritten} written; after restart ${after.RowsRead} read, ${after.RowsWritten} written, ${after.RowsFailed} failed`,
  );
}, 600_000);
