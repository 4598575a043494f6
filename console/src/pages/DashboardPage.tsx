// Dashboard: events per day by counter, omni shares by direction, and the top trending items,
// all from the analytics API (daily summaries and the TrendingItem log of the latest day).
import { call, client } from '../api.ts';
import { BarChart, LineChart } from '../charts.tsx';
import { ErrorMessage, Loading, PageTitle, Section, useLoad } from '../components.tsx';

const DAYS = 30;
const EVENT_COUNTERS = [
  'ItemView',
  'ItemLike',
  'ItemShare',
  'AddedShoppingCartItem',
  'AddedWishlistItem',
  'OmniShare',
];
const DIRECTIONS: [string, string][] = [
  ['OmniShareFromInStoreDeviceToInStoreDevice', 'In-store device → in-store device'],
  ['OmniShareFromInStoreDeviceToCustomerDevice', 'In-store device → customer device'],
  ['OmniShareFromCustomerDeviceToCustomerDevice', 'Customer device → customer device'],
  ['OmniShareFromCustomerDeviceToInStoreDevice', 'Customer device → in-store device'],
];

/** The fields of a TrendingItem record the dashboard shows (the document types logs as open objects). */
interface TrendingRecord {
  ItemId: number;
  ItemTitle: string | null;
  TotalTimeImpactValue: number;
  TotalActionCount: number;
}

function trendingRecordOf(log: Record<string, unknown>): TrendingRecord | undefined {
  const { ItemId, ItemTitle, TotalTimeImpactValue, TotalActionCount } = log;
  if (
    typeof ItemId !== 'number' ||
    typeof TotalTimeImpactValue !== 'number' ||
    typeof TotalActionCount !== 'number'
  )
    return undefined;
  return {
    ItemId,
    ItemTitle: typeof ItemTitle === 'string' ? ItemTitle : null,
    TotalTimeImpactValue,
    TotalActionCount,
  };
}

/** OLE Automation day number of a UTC date (days since 1899-12-30). */
const oaDateOf = (time: number) => Math.floor(time / 86_400_000) + 25_569;
const dayKey = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const keyOfOaDate = (oa: number) => new Date((oa - 25_569) * 86_400_000).toISOString().slice(0, 10);

async function dailyCounts(counter: string, start: number, end: number) {
  const rows = await call(
    client.GET('/private/analytics/servercounters/{counter}/summary/{period}', {
      params: {
        path: { counter, period: 'daily' },
        query: { startOADate: start, endOADate: end },
      },
    }),
  );
  return new Map(rows.map((r) => [dayKey(r.Year, r.Month ?? 1, r.Day ?? 1), r.TotalCount]));
}

async function topTrending(today: number): Promise<{ day: string; items: TrendingRecord[] }> {
  // Trending items are computed per day (by the daily job for yesterday, or on demand): show the
  // newest day that has any, looking back a week.
  for (let day = today; day > today - 7; day--) {
    const page = await call(
      client.GET('/private/analytics/servercounters/{counter}/logs', {
        params: { path: { counter: 'TrendingItem' }, query: { OADate: day, take: 1000 } },
      }),
    );
    const logs = page.Logs.flatMap((log) => trendingRecordOf(log) ?? []);
    if (logs.length === 0) continue;
    // One record per store and item: add the stores up per item.
    const byItem = new Map<number, TrendingRecord>();
    for (const log of logs) {
      const seen = byItem.get(log.ItemId);
      if (seen) {
        seen.TotalTimeImpactValue += log.TotalTimeImpactValue;
        seen.TotalActionCount += log.TotalActionCount;
      } else byItem.set(log.ItemId, { ...log });
    }
    const items = [...byItem.values()]
      .sort((a, b) => b.TotalTimeImpactValue - a.TotalTimeImpactValue)
      .slice(0, 10);
    return { day: keyOfOaDate(day), items };
  }
  return { day: '', items: [] };
}

async function loadDashboard() {
  const today = oaDateOf(Date.now());
  const start = today - DAYS + 1;
  const days = Array.from({ length: DAYS }, (_, i) => keyOfOaDate(start + i));
  const [events, directions, trending] = await Promise.all([
    Promise.all(EVENT_COUNTERS.map((c) => dailyCounts(c, start, today))),
    Promise.all(DIRECTIONS.map(([c]) => dailyCounts(c, start, today))),
    topTrending(today),
  ]);
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    days,
    series: EVENT_COUNTERS.map((name, i) => ({
      name,
      values: days.map((d) => events[i]!.get(d) ?? 0),
    })),
    todayCounts: EVENT_COUNTERS.map((name, i) => ({
      name,
      today: events[i]!.get(days[days.length - 1]!) ?? 0,
      total: total(events[i]!),
    })),
    shares: DIRECTIONS.map(([, label], i) => ({ label, value: total(directions[i]!) })),
    trending,
  };
}

export function DashboardPage() {
  const { data, error, loading, reload } = useLoad(loadDashboard, []);
  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      <p>
        <button type="button" onClick={reload} disabled={loading}>
          Refresh
        </button>
      </p>
      <ErrorMessage error={error} />
      {!data && loading && <Loading />}
      {data && (
        <>
          <Section title={`Events per day, last ${DAYS} days`}>
            <LineChart labels={data.days} series={data.series} title="Events per day by counter" />
            <table className="cards">
              <caption>Events by counter</caption>
              <thead>
                <tr>
                  <th scope="col">Counter</th>
                  <th scope="col">Today</th>
                  <th scope="col">Last {DAYS} days</th>
                </tr>
              </thead>
              <tbody>
                {data.todayCounts.map((row) => (
                  <tr key={row.name}>
                    <th scope="row">{row.name}</th>
                    <td data-label="Today">{row.today}</td>
                    <td data-label={`Last ${DAYS} days`}>{row.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title={`Omni shares by direction, last ${DAYS} days`}>
            <BarChart bars={data.shares} title="Omni shares by direction" />
          </Section>
          <Section title="Top trending items">
            {data.trending.items.length === 0 ? (
              <p>No trending items in the last week.</p>
            ) : (
              <table className="cards">
                <caption>Trending on {data.trending.day}</caption>
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Score</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.trending.items.map((item) => (
                    <tr key={item.ItemId}>
                      <th scope="row">{item.ItemTitle ?? `Item ${item.ItemId}`}</th>
                      <td data-label="Score">{item.TotalTimeImpactValue.toFixed(2)}</td>
                      <td data-label="Actions">{item.TotalActionCount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
        </>
      )}
    </>
  );
}
