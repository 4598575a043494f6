// A blob that no asset uses any more is removed by the collector job, never while an asset still
// uses it: equal bytes uploaded twice by one tenant are one blob until both assets are deleted,
// and each tenant has a blob of its own (an upload writes only its tenant's rows). Blobs stored
// before blobs were kept by tenant (migration 0310) are read from under their hash alone and
// removed once no asset of any tenant has them.
import { createHash, randomBytes } from 'node:crypto';
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
import { spoolBuffer } from '../../../src/modules/storage/spool.ts';

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
  const blobRows = async (tenant: TestTenant, sha256: string) =>
    (
      await api.database.handle.query<{ n: number }>(
        'select count(*)::int as n from storage_blobs where tenant_id = $1 and sha256 = $2',
        [await api.tenantIdOf(tenant), sha256],
      )
    )[0]!.n;

  it("keeps a tenant's blob while any of its assets uses it and removes it after the last one", async () => {
    const bytes = png(7, 5);
    const sha256 = sha256Of(bytes);
    const first = await createAsset(api, acme, bytes);
    const second = await createAsset(api, acme, bytes, 'image/png', 'again.png');
    expect(await blobRows(acme, sha256)).toBe(1);
    expect(await api.hasBlob(acme, sha256)).toBe(true);
    const collector = api.services.storage.collector;

    expectStatus(await remove(acme, first.Id), 204);
    // No grace: whatever no asset uses is collected at once.
    await collector.collect(0);
    expect(await api.hasBlob(acme, sha256)).toBe(true);
    expect(await blobRows(acme, sha256)).toBe(1);
    const stillServed = await fetchContent(api, second.AssetUrl);
    expectStatus(stillServed, 200);
    expect(Buffer.compare(stillServed.rawPayload, bytes)).toBe(0);

    expectStatus(await remove(acme, second.Id), 204);
    expect(await collector.collect(0)).toBeGreaterThanOrEqual(1);
    expect(await api.hasBlob(acme, sha256)).toBe(false);
    expect(await blobRows(acme, sha256)).toBe(0);
  });

  it("gives each tenant its own blob of equal bytes, removed with that tenant's last asset", async () => {
    const bytes = png(5, 7);
    const sha256 = sha256Of(bytes);
    const mine = await createAsset(api, acme, bytes);
    const theirs = await createAsset(api, globex, bytes);
    expect([await blobRows(acme, sha256), await blobRows(globex, sha256)]).toEqual([1, 1]);
    expect([await api.hasBlob(acme, sha256), await api.hasBlob(globex, sha256)]).toEqual([
      true,
      true,
    ]);

    expectStatus(await remove(acme, mine.Id), 204);
    await api.services.storage.collector.collect(0);
    expect([await api.hasBlob(acme, sha256), await api.hasBlob(globex, sha256)]).toEqual([
      false,
      true,
    ]);
    expect(await blobRows(globex, sha256)).toBe(1);
    const served = await fetchContent(api, theirs.AssetUrl);
    expectStatus(served, 200);
    expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);
    expectStatus(await remove(globex, theirs.Id), 204);
    await api.services.storage.collector.collect(0);
    expect(await api.hasBlob(globex, sha256)).toBe(false);
  });

  it('leaves an unused blob alone during its grace period (an upload may be on its way)', async () => {
    const bytes = png(3, 9);
    const sha256 = sha256Of(bytes);
    const asset = await createAsset(api, acme, bytes);
    expectStatus(await remove(acme, asset.Id), 204);
    await api.services.storage.collector.collect();
    expect(await api.hasBlob(acme, sha256)).toBe(true);
    // The same bytes uploaded again find their blob and are served.
    const again = await createAsset(api, acme, bytes);
    expectStatus(await fetchContent(api, again.AssetUrl), 200);
  });

  it('serves a blob stored before blobs were kept by tenant, and removes it once no asset has it', async () => {
    // What migration 0310 leaves of a blob two tenants' assets shared: the bytes under their hash
    // alone, listed in storage_shared_blobs, and a row of each tenant's.
    const bytes = png(11, 3);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const store = api.services.storage.store;
    const spooled = await spoolBuffer(bytes, await store.spoolDirectory());
    await store.put({ tenantId: null, sha256 }, spooled.file, spooled.size);
    const db = api.database.handle;
    await db.query('insert into storage_shared_blobs (sha256) values ($1)', [sha256]);
    const urls: string[] = [];
    for (const tenant of [acme, globex]) {
      const tenantId = await api.tenantIdOf(tenant);
      await db.query('insert into storage_blobs (tenant_id, sha256, size) values ($1, $2, $3)', [
        tenantId,
        sha256,
        bytes.length,
      ]);
      const [row] = await db.query<{ url_key: string; id: number }>(
        `insert into assets (tenant_id, file_name, mime_type, family, size, sha256, url_key)
         values ($1, 'old.png', 'image/png', 'image', $2, $3, $4) returning id, url_key`,
        [tenantId, bytes.length, sha256, randomBytes(32).toString('base64url')],
      );
      urls.push(`http://${tenant.host}/storage/blobs/${row!.url_key}`);
      expect(await api.hasBlob(tenant, sha256)).toBe(false);
      const served = await fetchContent(api, urls.at(-1)!, { range: 'bytes=0-7' });
      expectStatus(served, 206);
      expect(Buffer.compare(served.rawPayload, bytes.subarray(0, 8))).toBe(0);
    }
    const shared = async () =>
      (
        await db.query<{ n: number }>(
          'select count(*)::int as n from storage_shared_blobs where sha256 = $1',
          [sha256],
        )
      )[0]!.n;
    const [acmeAsset] = await db.query<{ id: number }>(
      'select id from assets where tenant_id = $1 and sha256 = $2',
      [await api.tenantIdOf(acme), sha256],
    );
    expectStatus(await remove(acme, acmeAsset!.id), 204);
    await api.services.storage.collector.collect(0);
    // Globex's asset still has the hash: the bytes stay, and are still served.
    expect(await shared()).toBe(1);
    expect(await store.has({ tenantId: null, sha256 })).toBe(true);
    expectStatus(await fetchContent(api, urls[1]!), 200);

    const [globexAsset] = await db.query<{ id: number }>(
      'select id from assets where tenant_id = $1 and sha256 = $2',
      [await api.tenantIdOf(globex), sha256],
    );
    expectStatus(await remove(globex, globexAsset!.id), 204);
    await api.services.storage.collector.collect(0);
    expect(await shared()).toBe(0);
    expect(await store.has({ tenantId: null, sha256 })).toBe(false);
    expect(await blobRows(globex, sha256)).toBe(0);
  });

  it('is scheduled: its queue is declared with a cron expression', () => {
    const storage = api.services.modules.find((m) => m.name === 'storage')!;
    expect(storage.queues?.find((q) => q.name === 'storage.collect-blobs')?.cron).toBeDefined();
  });
});
