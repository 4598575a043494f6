// GET /private/analytics/servercounters/{counter}/logs: OADate in the tenant's time zone (around
// midnight and DST changes), from/to, filters, OmniShare over its four directions, keyset pages
// under concurrent ingestion, forged and foreign continuation tokens, tenancy.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import { allPages, ingest, ingestOk, logs, logsOk, oaDate } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');

const setZone = async (tenant: TestTenant, zone: string) => {
  const response = await api.call({
    method: 'PUT',
    url: '/management/configuration/analytics',
    tenant,
    body: { TimeZone: zone },
  });
  expect(response.statusCode, response.body).toBe(200);
};
const view = (itemId: number, at: string, extra: Record<string, unknown> = {}) => ({
  Counter: 'ItemView',
  ItemId: itemId,
  CreatedDate: at,
  ...extra,
});
const ids = (records: Record<string, unknown>[]) => records.map((r) => r.ItemId);

describe('OADate days', () => {
  it('are UTC days by default, split exactly at midnight', async () => {
    await ingestOk(api, acme, [
      view(1, '2025-01-14T23:59:59.999Z'),
      view(2, '2025-01-15T00:00:00.000Z'),
      view(3, '2025-01-15T23:59:59.999Z'),
      view(4, '2025-01-16T00:00:00.000Z'),
    ]);
    expect(oaDate('2025-01-15')).toBe(45672);
    expect(ids((await logsOk(api, acme, 'ItemView', 'OADate=45672')).Logs)).toEqual([2, 3]);
    // The parameter name is matched case-insensitively.
    expect(ids((await logsOk(api, acme, 'itemview', 'oaDate=45671')).Logs)).toEqual([1]);
  });

  it("are the tenant time zone's days, 23 and 25 hours long around DST changes", async () => {
    await setZone(other, 'Europe/Berlin');
    // Berlin: 2025-03-30 starts 2025-03-29T23:00Z and lasts 23 hours (to 2025-03-30T22:00Z);
    // 2025-10-26 starts 2025-10-25T22:00Z and lasts 25 hours (to 2025-10-26T23:00Z).
    await ingestOk(api, other, [
      view(10, '2025-03-29T22:59:59.000Z'),
      view(11, '2025-03-29T23:00:00.000Z'),
      view(12, '2025-03-30T21:59:59.000Z'),
      view(13, '2025-03-30T22:00:00.000Z'),
      view(20, '2025-10-25T21:59:59.000Z'),
      view(21, '2025-10-25T22:00:00.000Z'),
      view(22, '2025-10-26T22:59:59.000Z'),
      view(23, '2025-10-26T23:00:00.000Z'),
    ]);
    const day = async (date: string) =>
      ids((await logsOk(api, other, 'ItemView', `OADate=${oaDate(date)}`)).Logs);
    expect(await day('2025-03-29')).toEqual([10]);
    expect(await day('2025-03-30')).toEqual([11, 12]);
    expect(await day('2025-03-31')).toEqual([13]);
    expect(await day('2025-10-25')).toEqual([20]);
    expect(await day('2025-10-26')).toEqual([21, 22]);
    expect(await day('2025-10-27')).toEqual([23]);
  });

  it('take from/to instead (from inclusive, to exclusive)', async () => {
    const page = await logsOk(
      api,
      acme,
      'ItemView',
      'from=2025-01-15T00:00:00Z&to=2025-01-16T00:00:00.001Z',
    );
    expect(ids(page.Logs)).toEqual([2, 3, 4]);
  });

  it('refuse a missing range, both kinds at once, a reversed range and bad values with 400', async () => {
    expectError(await logs(api, acme, 'ItemView', ''), 400, 'InvalidAnalyticsQuery');
    expectError(
      await logs(api, acme, 'ItemView', 'from=2025-01-01T00:00:00Z'),
      400,
      'InvalidAnalyticsQuery',
    );
    expectError(
      await logs(
        api,
        acme,
        'ItemView',
        'OADate=45672&from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z',
      ),
      400,
      'InvalidAnalyticsQuery',
    );
    expectError(
      await logs(api, acme, 'ItemView', 'from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z'),
      400,
      'InvalidAnalyticsQuery',
    );
    expectError(await logs(api, acme, 'ItemView', 'OADate=abc'), 400, 'ValidationFailed');
    expectError(await logs(api, acme, 'ItemView', 'OADate=45672&take=0'), 400, 'ValidationFailed');
    expectError(
      await logs(api, acme, 'ItemView', 'OADate=45672&take=1001'),
      400,
      'ValidationFailed',
    );
    expectError(await logs(api, acme, 'ItemView', 'OADate=45672&nope=1'), 400, 'ValidationFailed');
  });

  it('404 for an unknown counter', async () => {
    expectError(await logs(api, acme, 'NoSuchCounter', 'OADate=45672'), 404, 'UnknownCounter');
  });
});

describe('filters and OmniShare', () => {
  it('filter by itemId, storeId and physicalDeviceId', async () => {
    const at = '2025-02-01T10:00:00Z';
    await ingestOk(api, acme, [
      view(100, at, { StoreId: 1, PhysicalDeviceId: 'a' }),
      view(100, at, { StoreId: 2, PhysicalDeviceId: 'b' }),
      view(101, at, { StoreId: 1, PhysicalDeviceId: 'b' }),
      { Counter: 'ItemLike', RelatedItemId: 100, CreatedDate: at },
    ]);
    const q = `OADate=${oaDate('2025-02-01')}`;
    expect((await logsOk(api, acme, 'ItemView', `${q}&itemId=100`)).Logs).toHaveLength(2);
    expect((await logsOk(api, acme, 'ItemView', `${q}&storeId=1`)).Logs).toHaveLength(2);
    expect(
      (await logsOk(api, acme, 'ItemView', `${q}&physicalDeviceId=b&storeId=1`)).Logs,
    ).toHaveLength(1);
    expect((await logsOk(api, acme, 'ItemLike', `${q}&itemId=100`)).Logs).toHaveLength(1);
  });

  it('OmniShare reads the four direction counters, oldest first, naming each direction', async () => {
    const directions = [
      'OmniShareFromInStoreDeviceToInStoreDevice',
      'OmniShareFromInStoreDeviceToCustomerDevice',
      'OmniShareFromCustomerDeviceToCustomerDevice',
      'OmniShareFromCustomerDeviceToInStoreDevice',
    ];
    const ticket = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    await ingestOk(
      api,
      acme,
      directions.map((Counter, i) => ({
        Counter,
        OmniTicket: ticket(i),
        CreatedDate: `2025-02-02T0${3 - i}:00:00Z`,
      })),
    );
    const all = await allPages(api, acme, 'omnishare', `OADate=${oaDate('2025-02-02')}&take=3`);
    expect(all.map((r) => r.Counter)).toEqual([...directions].reverse());
    expect(all.map((r) => r.OmniTicket)).toEqual([3, 2, 1, 0].map(ticket));
    const one = await logsOk(api, acme, directions[0]!, `OADate=${oaDate('2025-02-02')}`);
    expect(one.Logs).toHaveLength(1);
    expect(one.Logs[0]).not.toHaveProperty('Counter');
  });
});

describe('continuation pages', () => {
  const DAY = '2025-04-01';
  const at = (i: number) =>
    new Date(Date.parse(`${DAY}T00:00:00Z`) + Math.floor(i / 3) * 60_000).toISOString();

  it('walk the day oldest first; take defaults to 100; the last page has no token', async () => {
    // Three records per minute: ties on CreatedDate are ordered by their id.
    await ingestOk(
      api,
      acme,
      Array.from({ length: 250 }, (_, i) => view(i, at(i))),
    );
    const first = await logsOk(api, acme, 'ItemView', `OADate=${oaDate(DAY)}`);
    expect(first.Logs).toHaveLength(100);
    expect(first.ContinuationToken).toEqual(expect.any(String));
    const all = await allPages(api, acme, 'ItemView', `OADate=${oaDate(DAY)}&take=40`);
    expect(ids(all)).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('neither skip nor repeat a record while others are ingested between pages', async () => {
    const query = `OADate=${oaDate(DAY)}&take=30`;
    const seen: unknown[] = [];
    let token: string | null = null;
    let round = 0;
    do {
      const page: Awaited<ReturnType<typeof logsOk>> = await logsOk(
        api,
        acme,
        'ItemView',
        token ? `${query}&continuationKey=${encodeURIComponent(token)}` : query,
      );
      seen.push(...ids(page.Logs));
      token = page.ContinuationToken;
      // Between pages, and during the next fetch: records behind the cursor, ahead of it and
      // at the same instants as existing ones.
      round++;
      await Promise.all([
        ingestOk(api, acme, [view(10_000 + round, at(0)), view(20_000 + round, at(249))]),
        ingestOk(api, acme, [view(30_000 + round, `${DAY}T23:00:00Z`)]),
      ]);
    } while (token);
    const original = seen.filter((id) => (id as number) < 10_000);
    expect(original).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(new Set(seen).size).toBe(seen.length);
    // Everything ingested during the walk ahead of the cursor is on some page.
    expect(seen.filter((id) => (id as number) >= 30_000).length).toBeGreaterThan(0);
  });

  it('refuse a forged, altered, other-filter, other-counter or other-tenant token with 400', async () => {
    const q = `OADate=${oaDate(DAY)}&take=10`;
    const token = (await logsOk(api, acme, 'ItemView', q)).ContinuationToken!;
    const [position, signature] = token.split('.') as [string, string];
    const altered = Buffer.from(
      Buffer.from(position, 'base64url')
        .toString()
        .replace(/"\d+"\]$/, '"1"]'),
    ).toString('base64url');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `${altered}.${signature}`,
      `${position}.${flipped}`,
      'garbage',
      `${position}`,
      `${position}.${signature}.x`,
    ]) {
      expectError(
        await logs(api, acme, 'ItemView', `${q}&continuationKey=${encodeURIComponent(bad)}`),
        400,
        'InvalidContinuationToken',
      );
    }
    const k = `continuationKey=${encodeURIComponent(token)}`;
    expectError(
      await logs(api, acme, 'ItemView', `OADate=${oaDate(DAY) + 1}&${k}`),
      400,
      'InvalidContinuationToken',
    );
    expectError(
      await logs(api, acme, 'ItemView', `${q}&itemId=1&${k}`),
      400,
      'InvalidContinuationToken',
    );
    expectError(await logs(api, acme, 'ItemLike', `${q}&${k}`), 400, 'InvalidContinuationToken');
    expectError(await logs(api, other, 'ItemView', `${q}&${k}`), 400, 'InvalidContinuationToken');
    // The genuine token still works, with any page size.
    expect(
      (await logsOk(api, acme, 'ItemView', `OADate=${oaDate(DAY)}&take=5&${k}`)).Logs,
    ).toHaveLength(5);
  });
});

describe('tenancy', () => {
  it("shows a tenant only its own logs; another tenant's token is 401", async () => {
    const day = '2025-05-05';
    await ingestOk(api, acme, [view(1, `${day}T10:00:00Z`)]);
    expect((await logsOk(api, other, 'ItemView', `OADate=${oaDate(day)}`)).Logs).toEqual([]);
    const response = await api.call({
      url: `/private/analytics/servercounters/ItemView/logs?OADate=${oaDate(day)}`,
      tenant: acme.name,
      token: other.token,
    });
    expect(response.statusCode).toBe(401);
    expect((await ingest(api, acme, [view(1, `${day}T10:00:00Z`)], other.token)).statusCode).toBe(
      401,
    );
  });
});
