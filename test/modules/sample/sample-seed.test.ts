// The sample catalog (`omni sample seed|remove`, and the first start's demo tenant): what it makes,
// that the API answers from it as from any catalog (search, typo, facets, nearest store,
// trending), that seeding again makes nothing twice, and that removing it removes exactly what it
// made. On the suite's engine (PGlite, or PostgreSQL with TEST_DATABASE_URL).
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../../support/expectations.ts';
import { useTenant, useTestApi, type TestTenant } from '../../support/test-api.ts';

const api = useTestApi();
const garden = useTenant(api, 'garden');
const other = useTenant(api, 'other');

const baseUrl = (tenant: TestTenant) => `http://${tenant.host}`;
const tenantId = async (tenant: TestTenant) =>
  (await api.services.tenants.findByName(tenant.name))!.id;

async function get<T>(tenant: TestTenant, url: string): Promise<T> {
  const response = await api.call({ url, tenant });
  expectStatus(response, 200);
  return response.json<T>();
}

async function search<T>(tenant: TestTenant, body: object): Promise<T> {
  const response = await api.call({ method: 'POST', url: '/private/catalog/items', tenant, body });
  expectStatus(response, 200);
  return response.json<{ SearchResult: T }>().SearchResult;
}

const itemCount = async (tenant: TestTenant) =>
  (await get<{ TotalCount: number }>(tenant, '/private/catalog/items?take=1')).TotalCount;

/** Every analytics record of the last five weeks, counted by the summary of every counter. */
async function activityCount(tenant: TestTenant): Promise<number> {
  const today = Math.floor(Date.now() / 86_400_000) + 25_569;
  const summary = await get<{ Periods: { TotalCount: number }[] }[]>(
    tenant,
    `/private/analytics/summary/yearly?startOADate=${today - 35}&endOADate=${today}`,
  );
  return summary.flatMap((c) => c.Periods).reduce((sum, p) => sum + p.TotalCount, 0);
}

const EXPECTED_STRUCTURE = {
  category: 27,
  brand: 10,
  'price-type': 2,
  'attribute-type': 5,
  tag: 5,
  store: 10,
  'device-type': 2,
  'physical-device': 20,
  'logical-device': 20,
  analytics: 1,
};

describe('sample seed', { timeout: 180_000 }, () => {
  it('fills a tenant with a catalog, stores, devices and activity, by kind', async () => {
    const counts = await api.services.sample.seeder.seed(
      await tenantId(garden),
      baseUrl(garden),
      200,
    );
    expect(counts).toMatchObject({ ...EXPECTED_STRUCTURE, item: 200 });
    expect(counts.image).toBeGreaterThan(20);
    expect(await itemCount(garden)).toBe(200);
    expect(await itemCount(other)).toBe(0);
  });

  it('builds a category tree three levels deep', async () => {
    interface Node {
      Name: string;
      CategoryTreeItems: Node[];
    }
    const { Categories } = await get<{ Categories: Node[] }>(garden, '/private/catalog/categories');
    const depth = (nodes: Node[]): number =>
      nodes.length === 0 ? 0 : 1 + Math.max(...nodes.map((n) => depth(n.CategoryTreeItems)));
    expect(Categories.map((c) => c.Name)).toEqual(['Garden', 'Home', 'Outdoor living']);
    expect(depth(Categories)).toBe(3);
  });

  it('answers a one-word search with many hits, and its typo', async () => {
    const word = await get<{ TotalCount: number; Results: { Title: string }[] }>(
      garden,
      '/private/catalog/items/search?q=handmade&take=5',
    );
    expect(word.TotalCount).toBeGreaterThan(50);
    const typo = await search<{ Items: { Title: string }[]; TotalItemCount: number }>(garden, {
      Query: 'lanturn',
      Take: 50,
    });
    expect(typo.TotalItemCount).toBeGreaterThan(3);
    for (const item of typo.Items) expect(item.Title.toLowerCase()).toContain('lantern');
  });

  it('gives facets worth looking at: brands, categories and attribute values', async () => {
    const result = await search<{
      StaticNavigation: { Brands: { Name: string }[]; Tags: unknown[]; PriceRanges: unknown[] };
      DynamicNavigation: { TypeName: string; Values: unknown[] }[];
    }>(garden, { IncludeStaticNavigation: true, IncludeDynamicNavigation: true, Take: 1 });
    expect(result.StaticNavigation.Brands).toHaveLength(10);
    expect(result.StaticNavigation.Tags.length).toBeGreaterThan(2);
    expect(result.StaticNavigation.PriceRanges).toHaveLength(2);
    const colours = result.DynamicNavigation.find((facet) => facet.TypeName === 'Colour');
    expect(colours?.Values.length).toBeGreaterThan(4);
  });

  it('relates an image to every item', async () => {
    const result = await search<{
      Items: { Id: number }[];
      DefaultImages: { ItemId: number; MimeType: string; AssetUrl: string }[];
    }>(garden, { Take: 50, IncludeDefaultImages: true });
    expect(result.DefaultImages.map((image) => image.ItemId).sort()).toEqual(
      result.Items.map((item) => item.Id).sort(),
    );
    expect(new Set(result.DefaultImages.map((image) => image.MimeType))).toEqual(
      new Set(['image/svg+xml']),
    );
    // Drawn, not all alike.
    expect(new Set(result.DefaultImages.map((image) => image.AssetUrl)).size).toBeGreaterThan(10);
  });

  it('finds the nearest store and its devices', async () => {
    const berlin = await get<{ Data: { DeviceId: string }[] }>(
      garden,
      '/company/stores/13.40;52.52/logicaldevices',
    );
    expect(berlin.Data.map((d) => d.DeviceId).sort()).toEqual([
      'sample-berlin-kiosk-app',
      'sample-berlin-tablet-app',
    ]);
  });

  it('shows trending items and four weeks of activity', async () => {
    const trending = await get<{ Items: { ItemId: number }[] }>(
      garden,
      '/private/analytics/trendingitems?take=5',
    );
    expect(trending.Items).toHaveLength(5);
    expect(await activityCount(garden)).toBeGreaterThan(28 * 150);
    expect(await activityCount(other)).toBe(0);
  });

  it('makes nothing twice when run again', async () => {
    const id = await tenantId(garden);
    const activity = await activityCount(garden);
    const counts = await api.services.sample.seeder.seed(id, baseUrl(garden), 200);
    expect(counts).toMatchObject({ ...EXPECTED_STRUCTURE, item: 200 });
    expect(await itemCount(garden)).toBe(200);
    expect(await activityCount(garden)).toBe(activity);
  });

  it('grows to a larger sample, adding only the new items', async () => {
    const counts = await api.services.sample.seeder.seed(
      await tenantId(garden),
      baseUrl(garden),
      230,
    );
    expect(counts).toMatchObject({ ...EXPECTED_STRUCTURE, item: 230 });
    expect(await itemCount(garden)).toBe(230);
  });
});

describe('sample seed, stopped half-way', { timeout: 180_000 }, () => {
  const resumed = useTenant(api, 'resumed');

  it('goes on where it stopped, recording what the stopped run wrote', async () => {
    const id = await tenantId(resumed);
    await api.services.sample.seeder.seed(id, baseUrl(resumed), 40);
    // As if the process stopped after an import committed, before its items were recorded.
    await api.database.handle.query(
      "delete from sample_records where tenant_id = $1 and kind = 'item'",
      [id],
    );
    const counts = await api.services.sample.seeder.seed(id, baseUrl(resumed), 40);
    expect(counts).toMatchObject({ ...EXPECTED_STRUCTURE, item: 40 });
    expect(await itemCount(resumed)).toBe(40);
  });
});

describe('sample remove', { timeout: 180_000 }, () => {
  it("removes every sample record and nothing of the tenant's own", async () => {
    const id = await tenantId(garden);
    // The tenant's own data: an item in a sample category, and a brand of its own.
    const { Categories } = await get<{ Categories: { Id: number; Name: string }[] }>(
      garden,
      '/private/catalog/categories',
    );
    const home = Categories.find((c) => c.Name === 'Home')!;
    const brand = await api.call({
      method: 'POST',
      url: '/private/catalog/brand',
      tenant: garden,
      body: { Name: 'My own brand' },
    });
    expectStatus(brand, 201);
    const own = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: garden,
      body: { Title: 'My own lamp', CategoryId: home.Id, BrandId: brand.json<{ Id: number }>().Id },
    });
    expectStatus(own, 201);
    const ownId = own.json<{ Id: number }>().Id;

    const { removed, kept } = await api.services.sample.remover.remove(id);
    expect(removed).toMatchObject({ item: 230, store: 10, 'physical-device': 20, brand: 10 });
    expect(kept).toEqual({ category: 1 });
    expect(await itemCount(garden)).toBe(1);
    expectStatus(await api.call({ url: `/private/catalog/item/${ownId}`, tenant: garden }), 200);
    expect(await activityCount(garden)).toBe(0);
    const brands = await get<{ Results: { Name: string }[] }>(garden, '/private/catalog/brands');
    expect(brands.Results.map((b) => b.Name)).toEqual(['My own brand']);
    const stores = await get<{ TotalCount: number }>(garden, '/management/company/stores');
    expect(stores.TotalCount).toBe(0);
    // Only the category the tenant's item holds is left of the sample.
    expect(await api.services.sample.seeder.counts(id)).toEqual({ category: 1 });
  });

  it('can seed again after a removal', async () => {
    const counts = await api.services.sample.seeder.seed(
      await tenantId(garden),
      baseUrl(garden),
      20,
    );
    expect(counts.item).toBe(20);
    expect(await itemCount(garden)).toBe(21);
  });
});
