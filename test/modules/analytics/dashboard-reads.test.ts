// The two reads a dashboard makes: GET /private/analytics/summary/{period} (every counter's counts
// per period in one answer, equal to each counter's own summary) and
// GET /private/analytics/trendingitems (the newest computed day's top items, stores added up).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';
import { ingestOk, logsOk, oaDate, SERVER } from './analytics-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
let acmeId: number;

const TICKET = '00000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  acmeId = (await api.services.tenants.findByName('acme'))!.id;
  await ingestOk(api, acme, [
    { Counter: 'ItemView', ItemId: 1, StoreId: 1, CreatedDate: '2025-06-01T10:00:00Z' },
    { Counter: 'ItemView', ItemId: 1, StoreId: 2, CreatedDate: '2025-06-01T11:00:00Z' },
    { Counter: 'ItemView', ItemId: 2, StoreId: 1, CreatedDate: '2025-06-01T23:30:00Z' },
    { Counter: 'ItemView', ItemId: 2, CreatedDate: '2025-06-02T08:00:00Z' },
    {
      Counter: 'AddedShoppingCartItem',
      ItemId: 1,
      AddedStoreId: 2,
      CreatedDate: '2025-06-02T09:00:00Z',
    },
    {
      Counter: 'AddedShoppingCartItem',
      ItemId: 3,
      ItemTitle: 'Lamp',
      CreatedDate: '2025-06-02T09:30:00Z',
    },
    {
      Counter: 'OmniShareFromInStoreDeviceToCustomerDevice',
      OmniTicket: TICKET,
      CreatedDate: '2025-06-02T12:00:00Z',
    },
    { Counter: 'ItemView', ItemId: 1, CreatedDate: '2025-07-15T12:00:00Z' },
  ]);
  await ingestOk(api, other, [
    { Counter: 'ItemLike', RelatedItemId: 9, CreatedDate: '2025-06-01T12:00:00Z' },
  ]);
});

const SUMMARY = '/private/analytics/summary';
const summaryOf = (tenant: TestTenant, period: string, start: string, end: string) =>
  api.call({
    url: `${SUMMARY}/${period}?startOADate=${oaDate(start)}&endOADate=${oaDate(end)}`,
    tenant,
  });

describe('GET /private/analytics/summary/{period}', () => {
  it('answers every counter with records in the range, in one answer', async () => {
    const response = await summaryOf(acme, 'daily', '2025-06-01', '2025-06-30');
    expectStatus(response, 200);
    expect(response.json()).toEqual([
      {
        Counter: 'AddedShoppingCartItem',
        Periods: [{ Year: 2025, Month: 6, Day: 2, TotalCount: 2 }],
      },
      {
        Counter: 'ItemView',
        Periods: [
          { Year: 2025, Month: 6, Day: 1, TotalCount: 3 },
          { Year: 2025, Month: 6, Day: 2, TotalCount: 1 },
        ],
      },
      {
        Counter: 'OmniShareFromInStoreDeviceToCustomerDevice',
        Periods: [{ Year: 2025, Month: 6, Day: 2, TotalCount: 1 }],
      },
    ]);
  });

  it("equals each counter's own summary, in every period and in the tenant's time zone", async () => {
    await api.call({
      method: 'PUT',
      url: '/management/configuration/analytics',
      tenant: acme,
      body: { TimeZone: 'Asia/Tokyo' },
    });
    try {
      for (const period of ['daily', 'weekly', 'monthly', 'Yearly']) {
        const all = await summaryOf(acme, period, '2025-05-01', '2025-12-31');
        expectStatus(all, 200);
        const counters = all.json<{ Counter: string; Periods: unknown[] }[]>();
        expect(counters.map((c) => c.Counter)).toEqual([
          'AddedShoppingCartItem',
          'ItemView',
          'OmniShareFromInStoreDeviceToCustomerDevice',
        ]);
        for (const { Counter, Periods } of counters) {
          const own = await api.call({
            url: `${SERVER}/${Counter}/summary/${period}?startOADate=${oaDate('2025-05-01')}&endOADate=${oaDate('2025-12-31')}`,
            tenant: acme,
          });
          expect(Periods, `${Counter} ${period}`).toEqual(own.json());
        }
      }
      // 23:30Z on June 1st is June 2nd in Tokyo.
      const daily = await summaryOf(acme, 'daily', '2025-06-01', '2025-06-02');
      expect(daily.json<{ Counter: string; Periods: unknown[] }[]>()[1]).toEqual({
        Counter: 'ItemView',
        Periods: [
          { Year: 2025, Month: 6, Day: 1, TotalCount: 2 },
          { Year: 2025, Month: 6, Day: 2, TotalCount: 2 },
        ],
      });
    } finally {
      await api.call({
        method: 'PUT',
        url: '/management/configuration/analytics',
        tenant: acme,
        body: { TimeZone: 'UTC' },
      });
    }
  });

  it('answers an empty list for a range without records', async () => {
    const response = await summaryOf(acme, 'daily', '2025-01-01', '2025-01-31');
    expectStatus(response, 200);
    expect(response.json()).toEqual([]);
  });

  it('leaves out TrendingItem records', async () => {
    await api.services.analytics.trending.run(acmeId, '2025-06-02');
    const response = await summaryOf(acme, 'monthly', '2025-06-01', '2025-06-30');
    expect(response.json<{ Counter: string }[]>().map((c) => c.Counter)).not.toContain(
      'TrendingItem',
    );
  });

  it("counts no other tenant's records", async () => {
    const response = await summaryOf(other, 'daily', '2025-06-01', '2025-06-30');
    expectStatus(response, 200);
    expect(response.json()).toEqual([
      { Counter: 'ItemLike', Periods: [{ Year: 2025, Month: 6, Day: 1, TotalCount: 1 }] },
    ]);
  });

  it('refuses a bad period or range with 400 InvalidAnalyticsQuery', async () => {
    expectError(
      await summaryOf(acme, 'hourly', '2025-06-01', '2025-06-02'),
      400,
      'InvalidAnalyticsQuery',
      'period',
    );
    expectError(
      await summaryOf(acme, 'daily', '2025-06-02', '2025-06-01'),
      400,
      'InvalidAnalyticsQuery',
      'endOADate',
    );
    expectError(
      await summaryOf(acme, 'daily', '2010-01-01', '2025-06-01'),
      400,
      'InvalidAnalyticsQuery',
      'endOADate',
    );
  });

  it('refuses missing or malformed days with 400', async () => {
    expectError(await api.call({ url: `${SUMMARY}/daily`, tenant: acme }), 400);
    expectError(
      await api.call({ url: `${SUMMARY}/daily?startOADate=x&endOADate=45000`, tenant: acme }),
      400,
    );
    expectError(
      await api.call({ url: `${SUMMARY}/daily?startOADate=0&endOADate=45000`, tenant: acme }),
      400,
    );
  });

  it('needs a token of this tenant (401)', async () => {
    const response = await api.call({
      url: `${SUMMARY}/daily?startOADate=45000&endOADate=45001`,
      tenant: acme.name,
      token: other.token,
    });
    expect(response.statusCode).toBe(401);
  });
});

const TRENDING = '/private/analytics/trendingitems';

interface TopTrending {
  Date: string | null;
  OADate: number | null;
  Items: {
    ItemId: number;
    ItemTitle: string | null;
    TotalTimeImpactValue: number;
    TotalActionTypeImpactValue: number;
    TotalActionCount: number;
  }[];
}

const topOf = async (tenant: TestTenant, query: string) => {
  const response = await api.call({ url: `${TRENDING}?${query}`, tenant });
  expectStatus(response, 200);
  return response.json<TopTrending>();
};

describe('GET /private/analytics/trendingitems', () => {
  beforeAll(async () => {
    await api.services.analytics.trending.run(acmeId, '2025-06-01');
    await api.services.analytics.trending.run(acmeId, '2025-06-02');
  });

  it("answers the day's items with their stores added up, highest score first", async () => {
    const top = await topOf(acme, `OADate=${oaDate('2025-06-02')}`);
    expect(top.Date).toBe('2025-06-02');
    expect(top.OADate).toBe(oaDate('2025-06-02'));
    // The day's TrendingItem records (one per store and item), added up by hand.
    const logs = (await logsOk(api, acme, 'TrendingItem', `OADate=${oaDate('2025-06-02')}`)).Logs;
    const sums = new Map<number, { time: number; weight: number; actions: number }>();
    for (const log of logs) {
      const sum = sums.get(log.ItemId as number) ?? { time: 0, weight: 0, actions: 0 };
      sum.time += log.TotalTimeImpactValue as number;
      sum.weight += log.TotalActionTypeImpactValue as number;
      sum.actions += log.TotalActionCount as number;
      sums.set(log.ItemId as number, sum);
    }
    expect(logs.length).toBeGreaterThan(sums.size);
    expect(top.Items.map((i) => i.ItemId).sort()).toEqual([...sums.keys()].sort());
    for (const item of top.Items) {
      const sum = sums.get(item.ItemId)!;
      expect(item.TotalTimeImpactValue).toBeCloseTo(sum.time, 5);
      expect(item.TotalActionTypeImpactValue).toBeCloseTo(sum.weight, 5);
      expect(item.TotalActionCount).toBe(sum.actions);
    }
    const scores = top.Items.map((i) => i.TotalTimeImpactValue);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Item 1: two views (1 each) and a cart add (4) over two stores.
    expect(top.Items.find((i) => i.ItemId === 1)).toMatchObject({
      TotalActionTypeImpactValue: 6,
      TotalActionCount: 3,
    });
    expect(top.Items.find((i) => i.ItemId === 3)?.ItemTitle).toBe('Lamp');
    expect(top.Items.find((i) => i.ItemId === 1)?.ItemTitle).toBeNull();
  });

  it('takes the newest computed day among the days looked at', async () => {
    expect((await topOf(acme, `OADate=${oaDate('2025-06-05')}`)).Date).toBe('2025-06-02');
    expect((await topOf(acme, `OADate=${oaDate('2025-06-01')}`)).Date).toBe('2025-06-01');
    expect((await topOf(acme, `OADate=${oaDate('2025-06-10')}&days=9`)).Date).toBe('2025-06-02');
    expect(await topOf(acme, `OADate=${oaDate('2025-06-10')}&days=8`)).toEqual({
      Date: null,
      OADate: null,
      Items: [],
    });
    expect(await topOf(acme, `OADate=${oaDate('2025-05-31')}`)).toEqual({
      Date: null,
      OADate: null,
      Items: [],
    });
  });

  it('looks back from today in the tenant time zone by default', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await topOf(acme, '')).toEqual({ Date: null, OADate: null, Items: [] });
    await ingestOk(api, acme, [
      {
        Counter: 'ItemLike',
        RelatedItemId: 5,
        CreatedDate: new Date(Date.now() - 1000).toISOString(),
      },
    ]);
    await api.services.analytics.trending.run(acmeId, today);
    const top = await topOf(acme, 'take=1');
    expect(top).toMatchObject({ Date: today, Items: [{ ItemId: 5, TotalActionCount: 1 }] });
    expect(top.Items).toHaveLength(1);
  });

  it('answers take items at most', async () => {
    const top = await topOf(acme, `OADate=${oaDate('2025-06-02')}&take=1`);
    expect(top.Items).toHaveLength(1);
    expect(top.Items[0]!.ItemId).toBe(1);
  });

  it("shows no other tenant's trending items", async () => {
    expect(await topOf(other, `OADate=${oaDate('2025-06-02')}`)).toEqual({
      Date: null,
      OADate: null,
      Items: [],
    });
  });

  it('refuses bad values and unknown parameters with 400', async () => {
    for (const query of [
      'take=0',
      'take=1001',
      'days=0',
      'days=367',
      'OADate=0',
      'OADate=x',
      'x=1',
    ])
      expectError(await api.call({ url: `${TRENDING}?${query}`, tenant: acme }), 400);
  });

  it('needs a token of this tenant (401)', async () => {
    const response = await api.call({ url: TRENDING, tenant: acme.name, token: other.token });
    expect(response.statusCode).toBe(401);
  });
});
