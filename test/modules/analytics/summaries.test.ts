// GET /private/analytics/servercounters/{counter}/summary/{period}: counts per day, ISO week,
// month and year in the tenant's time zone, checked against counts made by brute force.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import { ingestOk, oaDate } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
const instants: Date[] = [];

// Pseudo-random but fixed instants over 2024-12-20 .. 2026-01-10 (crossing years, ISO weeks
// that straddle years, and the DST changes), plus exact local midnights.
function makeInstants(): Date[] {
  let seed = 42;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const start = Date.parse('2024-12-20T00:00:00Z');
  const span = Date.parse('2026-01-10T00:00:00Z') - start;
  const out = Array.from({ length: 1500 }, () => new Date(start + Math.floor(rand() * span)));
  out.push(new Date('2025-03-30T22:00:00Z'), new Date('2025-03-30T21:59:59.999Z'));
  out.push(new Date('2024-12-31T23:00:00Z'), new Date('2024-12-31T22:59:59.999Z'));
  return out;
}

beforeAll(async () => {
  instants.push(...makeInstants());
  for (let i = 0; i < instants.length; i += 1000)
    await ingestOk(
      api,
      acme,
      instants.slice(i, i + 1000).map((d, n) => ({
        Counter: n % 2 ? 'AddedWishlistItem' : 'ItemView',
        ItemId: 1,
        CreatedDate: d.toISOString(),
      })),
    );
  await ingestOk(api, other, [
    { Counter: 'ItemView', ItemId: 1, CreatedDate: '2025-05-05T00:00:00Z' },
  ]);
});

type Row = { Year: number; Month?: number; WeekOfYear?: number; Day?: number; TotalCount: number };

/** The wall-clock parts of an instant in a zone (Intl, independent of the database). */
function localParts(date: Date, zone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

function isoWeek(year: number, month: number, day: number): [number, number] {
  const d = new Date(Date.UTC(year, month - 1, day));
  const weekday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - weekday + 3); // Thursday of the week
  const weekYear = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(weekYear, 0, 1)) / 604_800_000);
  return [weekYear, week];
}

function bruteForce(
  period: string,
  zone: string,
  start: string,
  end: string,
  picked: Date[],
): Row[] {
  const counts = new Map<string, Row>();
  for (const instant of picked) {
    const { year, month, day } = localParts(instant, zone);
    const local = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    if (local < start || local > end) continue;
    let row: Row;
    if (period === 'yearly') row = { Year: year, TotalCount: 0 };
    else if (period === 'monthly') row = { Year: year, Month: month, TotalCount: 0 };
    else if (period === 'weekly') {
      const [y, w] = isoWeek(year, month, day);
      row = { Year: y, WeekOfYear: w, TotalCount: 0 };
    } else row = { Year: year, Month: month, Day: day, TotalCount: 0 };
    const key = JSON.stringify({ ...row, TotalCount: 0 });
    const found = counts.get(key) ?? row;
    found.TotalCount++;
    counts.set(key, found);
  }
  return [...counts.values()];
}

const summary = (tenant: TestTenant, counter: string, period: string, start: number, end: number) =>
  api.call({
    url: `/private/analytics/servercounters/${counter}/summary/${period}?startOADate=${start}&endOADate=${end}`,
    tenant,
  });

const sortKey = (r: Row) => [r.Year, r.Month ?? r.WeekOfYear ?? 0, r.Day ?? 0];
const sortRows = (rows: Row[]) =>
  [...rows].sort((a, b) => {
    const [x, y] = [sortKey(a), sortKey(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });

describe('GET …/summary/{period}', () => {
  const views = () => instants.filter((_, i) => (i % 1000) % 2 === 0);
  for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York']) {
    it.each(['daily', 'weekly', 'monthly', 'yearly'])(
      `%s in ${zone} equals brute-force counts`,
      async (period) => {
        await api.call({
          method: 'PUT',
          url: '/management/configuration/analytics',
          tenant: acme,
          body: { TimeZone: zone },
        });
        const [start, end] = ['2024-12-29', '2025-12-31'];
        const response = await summary(
          acme,
          'ItemView',
          period[0]!.toUpperCase() + period.slice(1),
          oaDate(start),
          oaDate(end),
        );
        expect(response.statusCode, response.body).toBe(200);
        const rows = response.json<Row[]>();
        expect(rows).toEqual(sortRows(rows));
        expect(sortRows(rows)).toEqual(sortRows(bruteForce(period, zone, start, end, views())));
        expect(rows.reduce((n, r) => n + r.TotalCount, 0)).toBeGreaterThan(500);
      },
    );
  }

  it('counts one day when start and end are the same, and nothing of other tenants', async () => {
    await api.call({
      method: 'PUT',
      url: '/management/configuration/analytics',
      tenant: acme,
      body: { TimeZone: 'UTC' },
    });
    const day = oaDate('2025-05-05');
    const rows = (await summary(other, 'itemview', 'daily', day, day)).json<Row[]>();
    expect(rows).toEqual([{ Year: 2025, Month: 5, Day: 5, TotalCount: 1 }]);
  });

  it('refuses a reversed range, more than ten years and an unknown period with 400', async () => {
    expectError(
      await summary(acme, 'ItemView', 'daily', 45700, 45699),
      400,
      'InvalidAnalyticsQuery',
      'endOADate',
    );
    expectError(
      await summary(acme, 'ItemView', 'yearly', 40000, 40000 + 3653),
      400,
      'InvalidAnalyticsQuery',
      'endOADate',
    );
    expect((await summary(acme, 'ItemView', 'yearly', 40000, 40000 + 3652)).statusCode).toBe(200);
    expectError(
      await summary(acme, 'ItemView', 'hourly', 45700, 45701),
      400,
      'InvalidAnalyticsQuery',
      'period',
    );
    expectError(await summary(acme, 'ItemView', 'daily', 0, 45701), 400, 'ValidationFailed');
    expectError(await summary(acme, 'Nope', 'daily', 45700, 45701), 404, 'UnknownCounter');
  });
});
