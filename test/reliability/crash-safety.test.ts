// kill -9 during catalog writes, analytics ingestion and asset uploads, then a restart on the same
// database: every acknowledged write is there, whole, and nothing is half-written (an item has
// its price, a batch has all its records or none, an asset row has all its bytes).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, expect, it } from 'vitest';
import {
  migratedDataDir,
  removeTempDirs,
  listeningServer,
  runCli,
  stopChildren,
} from '../support/processes.ts';
import { bearerCall, clientToken, httpCall, type HttpAnswer } from '../support/http-call.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const BATCH = 100;
let database: TestDatabase | undefined;

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
  await database?.handle.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

it('keeps every acknowledged write, and no half-written one, across kill -9', async () => {
  const dataDir = await migratedDataDir();
  // On PostgreSQL the server processes share the run's database server, a fresh database of it.
  if (process.env.TEST_DATABASE_URL) database = await openTestDatabase();
  const env: Record<string, string> = database?.url ? { DATABASE_URL: database.url } : {};
  const created = await runCli(['tenant', 'create', 'crash', '--json'], {
    DATA_DIR: dataDir,
    ...env,
  });
  expect(created.code, created.stderr).toBe(0);
  const app = JSON.parse(created.stdout) as { ApplicationId: string; ApplicationSecret: string };
  const start = () => listeningServer(dataDir, env);
  const first = await start();
  let port = first.port;
  const host = () => `crash.localhost:${port}`;
  const token = await clientToken(port, host(), app.ApplicationId, app.ApplicationSecret);
  const call = (method: string, path: string, body?: string | Buffer, type?: string) =>
    bearerCall(port, host(), token, method, path, body, type);
  const json = <T>(answer: HttpAnswer) => JSON.parse(answer.body.toString()) as T;

  const priceType = json<{ Id: number }>(
    await call(
      'POST',
      '/private/catalog/pricetype',
      JSON.stringify({ Description: 'Retail', PriceTypeSymbol: 'EUR' }),
    ),
  );
  const startedAt = new Date(Date.now() - 60_000).toISOString();

  // Three writers, each keeping two requests in flight until the kill.
  let killed = false;
  const acknowledged = {
    items: [] as number[],
    batches: [] as number[],
    assets: [] as { id: number; url: string; sha: string }[],
  };
  let nextBatch = 1;
  const itemWriter = async () => {
    for (let n = 0; !killed; n++) {
      const answer = await call(
        'POST',
        '/private/catalog/item',
        JSON.stringify({
          Title: `Crash ${n}`,
          Prices: [{ PriceTypeId: priceType.Id, NormalPrice: n + 1 }],
        }),
      ).catch(() => undefined);
      if (answer?.status === 201 && !killed)
        acknowledged.items.push(json<{ Id: number }>(answer).Id);
    }
  };
  const batchWriter = async () => {
    while (!killed) {
      const batch = nextBatch++;
      const records = Array.from({ length: BATCH }, () => ({ Counter: 'ItemView', ItemId: batch }));
      const answer = await call('POST', '/analytics/logs', JSON.stringify(records)).catch(
        () => undefined,
      );
      if (answer?.status === 202 && !killed) acknowledged.batches.push(batch);
    }
  };
  const assetWriter = async () => {
    while (!killed) {
      const bytes = randomBytes(256 * 1024);
      const answer = await call(
        'POST',
        `/management/storage/asset/raw?fileName=crash.bin`,
        bytes,
        'application/octet-stream',
      ).catch(() => undefined);
      if (answer?.status === 201 && !killed) {
        const asset = json<{ Id: number; AssetUrl: string }>(answer);
        acknowledged.assets.push({ id: asset.Id, url: asset.AssetUrl, sha: sha256(bytes) });
      }
    }
  };
  const writers = [itemWriter, itemWriter, batchWriter, batchWriter, assetWriter, assetWriter].map(
    (w) => w(),
  );
  await expect
    .poll(
      () =>
        Math.min(
          acknowledged.items.length,
          acknowledged.batches.length,
          acknowledged.assets.length,
        ),
      {
        timeout: 60_000,
        interval: 50,
      },
    )
    .toBeGreaterThanOrEqual(5);
  // Answers read after this line are not counted: the process may die before they are sent.
  const snapshot = {
    items: [...acknowledged.items],
    batches: [...acknowledged.batches],
    assets: [...acknowledged.assets],
  };
  first.server.child.kill('SIGKILL');
  killed = true;
  await first.server.exited;
  await Promise.all(writers);

  port = (await start()).port;

  // Items: every acknowledged one is there with its price; every stored one is whole.
  const items = json<{
    Results: { Id: number; Title: string; Prices: unknown[] }[];
    TotalCount: number;
  }>(await call('GET', '/private/catalog/items?take=1000'));
  const stored = new Map(items.Results.map((item) => [item.Id, item]));
  for (const id of snapshot.items) expect(stored.has(id), `item ${id}`).toBe(true);
  for (const item of items.Results) expect(item.Prices, `item ${item.Id}`).toHaveLength(1);

  // Batches: each all or nothing, the acknowledged ones all there.
  const to = new Date(Date.now() + 60_000).toISOString();
  const counts = new Map<number, number>();
  for (let batch = 1; batch < nextBatch; batch++) {
    const page = json<{ Data?: unknown; Logs?: unknown[] }>(
      await call(
        'GET',
        `/private/analytics/servercounters/ItemView/logs?itemId=${batch}&take=1000&from=${encodeURIComponent(startedAt)}&to=${encodeURIComponent(to)}`,
      ),
    );
    counts.set(batch, page.Logs?.length ?? -1);
  }
  for (const [batch, count] of counts) expect([0, BATCH], `batch ${batch}`).toContain(count);
  for (const batch of snapshot.batches) expect(counts.get(batch), `batch ${batch}`).toBe(BATCH);

  // Assets: the acknowledged ones serve exactly their bytes; every stored one serves all of its.
  for (const asset of snapshot.assets) {
    const content = await httpCall(port, { path: new URL(asset.url).pathname, host: host() });
    expect(content.status, `asset ${asset.id}`).toBe(200);
    expect(sha256(content.body)).toBe(asset.sha);
  }
  const assets = json<{ Results: { Id: number; Size: number; AssetUrl: string }[] }>(
    await call('GET', '/management/storage/assets?take=1000'),
  );
  for (const asset of assets.Results) {
    const content = await httpCall(port, { path: new URL(asset.AssetUrl).pathname, host: host() });
    expect(content.status, `asset ${asset.Id}`).toBe(200);
    expect(content.body.length).toBe(asset.Size);
  }
  console.log(
    `crash safety: killed with ${snapshot.items.length} items, ${snapshot.batches.length} batches (${snapshot.batches.length * BATCH} records) and ${snapshot.assets.length} assets acknowledged; after restart ${items.TotalCount} items, ${[...counts.values()].filter((c) => c === BATCH).length} whole batches and ${assets.Results.length} assets stored`,
  );
}, 180_000);
