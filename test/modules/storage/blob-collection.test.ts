// A blob that no asset uses any more is removed by the collector job, never while an asset still
// uses it: equal bytes uploaded twice (even by two tenants) are one blob until both are deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { expectStatus } from '../../support/expectations.ts';
import {
  STORE_KINDS,
  createAsset,
  fetchContent,
  png,
  sha256Of,
  startStorageApi,
  type StorageTestApi,
} from './storage-fixtures.ts';

describe.each(STORE_KINDS)('the blob collector (%s store)', (kind) => {
  let api: StorageTestApi;
  let acme: TestTenant;
  let globex: TestTenant;

  beforeAll(async () => {
    api = await startStorageApi(kind);
    acme = await api.createTenant('acme');
    globex = await api.createTenant('globex');
  });
  afterAll(() => api.close());

  const remove = (tenant: TestTenant, id: number) =>
    api.call({ method: 'DELETE', url: `/management/storage/asset/${id}`, tenant });
  const blobRows = async (sha256: string) =>
    (
      await api.database.handle.query<{ n: number }>(
        'select count(*)::int as n from storage_blobs where sha256 = $1',
        [sha256],
      )
    )[0]!.n;

  it('keeps a blob while any asset uses it and removes it after the last one is deleted', async () => {
    const bytes = png(7, 5);
    const sha256 = sha256Of(bytes);
    const first = await createAsset(api, acme, bytes);
    const second = await createAsset(api, globex, bytes);
    expect(await api.hasBlob(sha256)).toBe(true);
    const collector = api.services.storage.collector;

    expectStatus(await remove(acme, first.Id), 204);
    // No grace: whatever no asset uses is collected at once.
    await collector.collect(0);
    expect(await api.hasBlob(sha256)).toBe(true);
    expect(await blobRows(sha256)).toBe(1);
    const stillServed = await fetchContent(api, second.AssetUrl);
    expectStatus(stillServed, 200);
    expect(Buffer.compare(stillServed.rawPayload, bytes)).toBe(0);

    expectStatus(await remove(globex, second.Id), 204);
    expect(await collector.collect(0)).toBeGreaterThanOrEqual(1);
    expect(await api.hasBlob(sha256)).toBe(false);
    expect(await blobRows(sha256)).toBe(0);
  });

  it('leaves an unused blob alone during its grace period (an upload may be on its way)', async () => {
    const bytes = png(3, 9);
    const sha256 = sha256Of(bytes);
    const asset = await createAsset(api, acme, bytes);
    expectStatus(await remove(acme, asset.Id), 204);
    await api.services.storage.collector.collect();
    expect(await api.hasBlob(sha256)).toBe(true);
    // The same bytes uploaded again find their blob and are served.
    const again = await createAsset(api, acme, bytes);
    expectStatus(await fetchContent(api, again.AssetUrl), 200);
  });

  it('is scheduled: its queue is declared with a cron expression', () => {
    const storage = api.services.modules.find((m) => m.name === 'storage')!;
    expect(storage.queues?.find((q) => q.name === 'storage.collect-blobs')?.cron).toBeDefined();
  });
});
