// Trending: action weights at /management/configuration/trendingactiontypes, the computation on
// a hand-checked example, replacing a day on a second run, and POST /management/analytics/trending.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import { ingestOk, logsOk, oaDate } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
let acmeId: number;

beforeAll(async () => {
  acmeId = (await api.services.tenants.findByName('acme'))!.id;
});

const WEIGHTS = '/management/configuration/trendingactiontypes';
const DEFAULTS = [
  { Counter: 'ItemView', ImpactValue: 1 },
  { Counter: 'ItemLike', ImpactValue: 3 },
  { Counter: 'ItemShare', ImpactValue: 5 },
  { Counter: 'AddedShoppingCartItem', ImpactValue: 4 },
  { Counter: 'AddedWishlistItem', ImpactValue: 2 },
];
const putWeights = (tenant: TestTenant, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: WEIGHTS, tenant, body, headers });

describe('GET|PUT /management/configuration/trendingactiontypes', () => {
  it('answers the defaults with an ETag until set, then the set weights', async () => {
    const first = await api.call({ url: WEIGHTS, tenant: other });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(DEFAULTS);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const put = await putWeights(other, [{ Counter: 'itemview', ImpactValue: 2.5 }], {
      'if-match': etag,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual([{ Counter: 'ItemView', ImpactValue: 2.5 }]);
    expect((await api.call({ url: WEIGHTS, tenant: other })).json()).toEqual([
      { Counter: 'ItemView', ImpactValue: 2.5 },
    ]);
    // The old ETag is stale now.
    expect((await putWeights(other, DEFAULTS, { 'if-match': etag })).statusCode).toBe(412);
    expect((await api.call({ url: WEIGHTS, tenant: acme })).json()).toEqual(DEFAULTS);
  });

  it('refuses counters without items, duplicates, unknown fields and wild values with 400', async () => {
    expectError(
      await putWeights(other, [{ Counter: 'WishlistByCreatedDate', ImpactValue: 1 }]),
      400,
      'InvalidTrendingActionTypes',
      '[0].Counter',
    );
    expectError(
      await putWeights(other, [{ Counter: 'OmniShare', ImpactValue: 1 }]),
      400,
      'InvalidTrendingActionTypes',
      '[0].Counter',
    );
    expectError(
      await putWeights(other, [
        { Counter: 'ItemView', ImpactValue: 1 },
        { Counter: 'itemView', ImpactValue: 2 },
      ]),
      400,
      'InvalidTrendingActionTypes',
      '[1].Counter',
    );
    expectError(
      await putWeights(other, [{ Counter: 'ItemView', ImpactValue: 1e6 }]),
      400,
      'InvalidTrendingActionTypes',
      '[0].ImpactValue',
    );
    expectError(
      await putWeights(other, [{ Counter: 'ItemView', ImpactValue: 1, X: 1 }]),
      400,
      'ValidationFailed',
    );
    expectError(
      await putWeights(other, [{ Counter: 'ItemView', ImpactValue: '1' }]),
      400,
      'ValidationFailed',
    );
  });

  it('needs the management scope (403) and a token of this tenant (401)', async () => {
    const publicToken = await api.issueToken(acme, acme.appId, acme.secret, 'public');
    expect((await api.call({ url: WEIGHTS, tenant: acme, token: publicToken })).statusCode).toBe(
      403,
    );
    expect(
      (await api.call({ url: WEIGHTS, tenant: acme.name, token: other.token })).statusCode,
    ).toBe(401);
  });
});

// The hand-checked example (docs/api.md, "Trending"): day 2025-06-10 in UTC, default weights,
// window 2025-06-04T00:00Z .. 2025-06-11T00:00Z, half-life one day measured from the window's end.
const EXAMPLE = [
  // store 1, item 7: view at age 0.5 d (1 × 0.5^0.5 = 0.707107), like at age 2 d (3 × 0.25),
  // cart add at age 0.25 d (4 × 0.5^0.25 = 3.363586): 8, 4.820693, 3 actions.
  {
    Counter: 'ItemView',
    ItemId: 7,
    StoreId: 1,
    ItemTitle: 'Chair',
    CreatedDate: '2025-06-10T12:00:00Z',
  },
  { Counter: 'ItemLike', RelatedItemId: 7, StoreId: 1, CreatedDate: '2025-06-09T00:00:00Z' },
  {
    Counter: 'AddedShoppingCartItem',
    ItemId: 7,
    AddedStoreId: 1,
    ItemTitle: 'Chair v2',
    CategoryId: 4,
    CreatedDate: '2025-06-10T18:00:00Z',
  },
  // Not weighted, before the window, after the day: not counted.
  {
    Counter: 'RemovedShoppingCartItem',
    ItemId: 7,
    RemovedStoreId: 1,
    CreatedDate: '2025-06-10T19:00:00Z',
  },
  { Counter: 'ItemView', ItemId: 7, StoreId: 1, CreatedDate: '2025-06-03T23:59:59Z' },
  { Counter: 'ItemView', ItemId: 7, StoreId: 1, CreatedDate: '2025-06-11T00:00:00Z' },
  // store 2, item 7: a share at age 7 d: 5 × 0.5^7 = 0.0390625.
  { Counter: 'ItemShare', ItemId: 7, StoreId: 2, CreatedDate: '2025-06-04T00:00:00Z' },
  // no store, item 8: a view at age 1 d: 0.5.
  {
    Counter: 'ItemView',
    ItemId: 8,
    ItemTitle: 'Lamp',
    BrandId: 3,
    CreatedDate: '2025-06-10T00:00:00Z',
  },
];

const trendingDay = async (tenant: TestTenant, date: string) =>
  (await logsOk(api, tenant, 'TrendingItem', `OADate=${oaDate(date)}`)).Logs;

describe('trending computation', () => {
  it('writes one TrendingItem per store and item, with decayed impact, dated the day', async () => {
    await ingestOk(api, acme, EXAMPLE);
    expect(await api.services.analytics.trending.run(acmeId, '2025-06-10')).toBe(3);
    const logs = await trendingDay(acme, '2025-06-10');
    expect(logs.map((l) => [l.StoreId, l.ItemId])).toEqual([
      [1, 7],
      [null, 8],
      [2, 7],
    ]);
    expect(logs[0]).toMatchObject({
      ItemTitle: 'Chair v2',
      CategoryId: 4,
      BrandId: null,
      TotalActionTypeImpactValue: 8,
      TotalActionCount: 3,
      CreatedDate: '2025-06-10T00:00:00.000Z',
    });
    expect(logs[0]!.TotalTimeImpactValue).toBeCloseTo(0.707107 + 0.75 + 3.363586, 5);
    expect(logs[1]).toMatchObject({
      ItemTitle: 'Lamp',
      BrandId: 3,
      TotalActionTypeImpactValue: 1,
      TotalActionCount: 1,
    });
    expect(logs[1]!.TotalTimeImpactValue).toBeCloseTo(0.5, 6);
    expect(logs[2]!.TotalTimeImpactValue).toBeCloseTo(0.0390625, 5);
    expect(
      (await logsOk(api, acme, 'TrendingItem', `OADate=${oaDate('2025-06-10')}&itemId=7&storeId=2`))
        .Logs,
    ).toHaveLength(1);
  });

  it('replaces the day on a second run (never doubles), with the weights of that run', async () => {
    expect(await api.services.analytics.trending.run(acmeId, '2025-06-10')).toBe(3);
    expect(await trendingDay(acme, '2025-06-10')).toHaveLength(3);
    await putWeights(acme, [{ Counter: 'ItemShare', ImpactValue: 10 }]);
    expect(await api.services.analytics.trending.run(acmeId, '2025-06-10')).toBe(1);
    const logs = await trendingDay(acme, '2025-06-10');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ StoreId: 2, ItemId: 7, TotalActionTypeImpactValue: 10 });
    await putWeights(acme, DEFAULTS);
  });

  it('reads the day in the tenant time zone', async () => {
    await api.call({
      method: 'PUT',
      url: '/management/configuration/analytics',
      tenant: other,
      body: { TimeZone: 'Asia/Tokyo' },
    });
    const otherId = (await api.services.tenants.findByName('other'))!.id;
    await putWeights(other, DEFAULTS);
    // 2025-06-10 in Tokyo ends at 2025-06-10T15:00Z: the 16:00Z view belongs to the next day.
    await ingestOk(api, other, [
      { Counter: 'ItemView', ItemId: 1, CreatedDate: '2025-06-10T14:00:00Z' },
      { Counter: 'ItemView', ItemId: 2, CreatedDate: '2025-06-10T16:00:00Z' },
    ]);
    expect(await api.services.analytics.trending.run(otherId, '2025-06-10')).toBe(1);
    const [log] = await trendingDay(other, '2025-06-10');
    expect(log).toMatchObject({ ItemId: 1, CreatedDate: '2025-06-09T15:00:00.000Z' });
    expect(log!.TotalTimeImpactValue).toBeCloseTo(Math.pow(0.5, 1 / 24), 6);
  });
});

describe('POST /management/analytics/trending', () => {
  const post = (tenant: TestTenant, query: string) =>
    api.call({ method: 'POST', url: `/management/analytics/trending?${query}`, tenant });

  it('runs the day in the background: 202, then the records appear', async () => {
    await ingestOk(api, acme, [
      { Counter: 'ItemView', ItemId: 55, CreatedDate: '2025-07-01T10:00:00Z' },
    ]);
    const response = await post(acme, 'date=2025-07-01');
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ Date: '2025-07-01' });
    let logs: Record<string, unknown>[] = [];
    for (let i = 0; i < 100 && logs.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      logs = await trendingDay(acme, '2025-07-01');
    }
    expect(logs).toEqual([expect.objectContaining({ ItemId: 55, TotalActionCount: 1 })]);
  });

  it('refuses a missing, malformed, impossible or future date with 400', async () => {
    expectError(await post(acme, ''), 400, 'ValidationFailed');
    expectError(await post(acme, 'date=2025-7-1'), 400, 'ValidationFailed');
    expectError(await post(acme, 'date=2025-02-30'), 400, 'InvalidAnalyticsQuery', 'date');
    expectError(await post(acme, 'date=2999-01-01'), 400, 'InvalidAnalyticsQuery', 'date');
  });
});
