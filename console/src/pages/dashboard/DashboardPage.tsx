// Dashboard: what shoppers did in the last 30 days (per day and by kind of action), items shared
// between devices, and the items trending on the newest computed day, in a retailer's words.
// A visit costs at most three API calls: every counter's daily counts in one summary, the top
// trending items in one, and the titles of those items in one catalog search by their ids (the
// analytics module keeps no catalog data; the console asks the catalog, with the member's own
// catalog permission).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, client } from '../../api.ts';
import { BarChart, LineChart } from '../../charts.tsx';
import { ErrorMessage, PageTitle, Section, useFocusAfter } from '../../components.tsx';
import { useAccess, type Access } from '../../session.tsx';
import { PageLink } from '../PageLink.tsx';
import './dashboard.css';

const DAYS = 30;
const TRENDING_DAYS = 7;
const TOP = 10;

/** The kinds of shopper activity shown, by the analytics counter that records them. */
const ACTIVITIES: { counters: string[]; label: string }[] = [
  { counters: ['ItemView'], label: 'Item views' },
  { counters: ['ItemLike'], label: 'Likes' },
  { counters: ['ItemShare'], label: 'Items shared' },
  { counters: ['AddedShoppingCartItem'], label: 'Added to cart' },
  { counters: ['AddedWishlistItem'], label: 'Added to wishlist' },
];
/** Omni shares: an item passed from one device to another, by direction. */
const DIRECTIONS: [string, string][] = [
  ['OmniShareFromInStoreDeviceToCustomerDevice', "From a store device to a shopper's phone"],
  ['OmniShareFromCustomerDeviceToInStoreDevice', "From a shopper's phone to a store device"],
  ['OmniShareFromInStoreDeviceToInStoreDevice', 'Between store devices'],
  ['OmniShareFromCustomerDeviceToCustomerDevice', "Between shoppers' phones"],
];
const SHARED_BETWEEN_DEVICES = {
  counters: DIRECTIONS.map(([counter]) => counter),
  label: 'Shared between devices',
};
const ROWS = [...ACTIVITIES, SHARED_BETWEEN_DEVICES];

/** OLE Automation day number of a UTC date (days since 1899-12-30). */
const oaDateOf = (time: number) => Math.floor(time / 86_400_000) + 25_569;
const dayKey = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const keyOfOaDate = (oa: number) => new Date((oa - 25_569) * 86_400_000).toISOString().slice(0, 10);
/** "27 Nov" (a YYYY-MM-DD day, named in the browser's language). */
const shortDay = (key: string, year = false) =>
  new Date(`${key}T00:00:00Z`).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });

interface TrendingRow {
  id: number;
  title: string;
  /** False when the catalog no longer has the item (no editor to open). */
  inCatalog: boolean;
  score: number;
  actions: number;
}

/** The titles of the trending items, from one catalog search by their ids. */
async function catalogTitles(ids: number[], access: Access): Promise<Map<number, string> | null> {
  if (ids.length === 0 || !access.can('catalog', 'read')) return null;
  try {
    const page = await call(
      client.GET('/private/catalog/items/search', {
        params: { query: { itemIds: ids.join(','), take: ids.length } },
      }),
    );
    return new Map(page.Results.map((item) => [item.Id, item.Title]));
  } catch {
    // The titles the actions recorded will do.
    return null;
  }
}

async function loadDashboard(access: Access) {
  const today = oaDateOf(Date.now());
  const start = today - DAYS + 1;
  const days = Array.from({ length: DAYS }, (_, i) => keyOfOaDate(start + i));
  const [summaries, trending] = await Promise.all([
    call(
      client.GET('/private/analytics/summary/{period}', {
        params: { path: { period: 'daily' }, query: { startOADate: start, endOADate: today } },
      }),
    ),
    call(
      client.GET('/private/analytics/trendingitems', {
        params: { query: { take: TOP, days: TRENDING_DAYS } },
      }),
    ),
  ]);
  const perDay = new Map<string, Map<string, number>>();
  for (const { Counter, Periods } of summaries)
    perDay.set(
      Counter,
      new Map(Periods.map((p) => [dayKey(p.Year, p.Month ?? 1, p.Day ?? 1), p.TotalCount])),
    );
  const countOn = (counters: string[], day: string) =>
    counters.reduce((sum, counter) => sum + (perDay.get(counter)?.get(day) ?? 0), 0);
  const series = ROWS.map(({ counters, label }) => ({
    name: label,
    values: days.map((day) => countOn(counters, day)),
  }));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  const titles = await catalogTitles(
    trending.Items.map((item) => item.ItemId),
    access,
  );
  const items: TrendingRow[] = trending.Items.map((item) => {
    const title = titles?.get(item.ItemId);
    return {
      id: item.ItemId,
      title: title ?? item.ItemTitle ?? `Item ${item.ItemId}`,
      inCatalog: titles === null || title !== undefined,
      score: item.TotalTimeImpactValue,
      actions: item.TotalActionCount,
    };
  });
  return {
    days,
    series,
    rows: ROWS.map(({ label }, i) => ({
      label,
      today: series[i]!.values.at(-1) ?? 0,
      total: sum(series[i]!.values),
    })),
    total: sum(series.map((s) => sum(s.values))),
    shares: DIRECTIONS.map(([counter, label]) => ({
      label,
      value: sum(days.map((day) => countOn([counter], day))),
    })),
    trending: { day: trending.Date, items, linked: titles !== null },
  };
}

type Dashboard = Awaited<ReturnType<typeof loadDashboard>>;

function NoActivity() {
  const access = useAccess();
  return (
    <div className="empty-state">
      <p>
        <strong>No shopper activity in the last {DAYS} days yet.</strong>
      </p>
      <p>
        Activity comes from your shop&rsquo;s apps and in-store devices: each time a shopper views,
        likes or shares an item, or adds it to a cart or wishlist, the app sends an event to this
        back office (<code>POST /analytics/logs</code>, described in the API reference). The counts
        appear here as soon as the first events arrive.
      </p>
      <ul>
        {access.can('company', 'read') && (
          <li>
            Register your in-store screens and kiosks under{' '}
            <PageLink to="stores">Stores and devices</PageLink>.
          </li>
        )}
        {access.can('apps', 'read') && (
          <li>
            Give each app its credentials under <PageLink to="apps">Apps</PageLink>.
          </li>
        )}
        <li>
          <a href="/docs">Open the API reference</a> for the events an app can send.
        </li>
      </ul>
    </div>
  );
}

function Activity({ data }: { data: Dashboard }) {
  if (data.total === 0) return <NoActivity />;
  return (
    <>
      <LineChart
        labels={data.days.map((d) => shortDay(d))}
        series={data.series}
        title="Shopper activity per day"
      />
      <table className="cards">
        <caption>Activity by type</caption>
        <thead>
          <tr>
            <th scope="col">Activity</th>
            <th scope="col">Today</th>
            <th scope="col">Last {DAYS} days</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td data-label="Today">{row.today}</td>
              <td data-label={`Last ${DAYS} days`}>{row.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Shares({ data }: { data: Dashboard }) {
  if (data.shares.every((share) => share.value === 0))
    return (
      <p className="empty-state">
        No item was passed between devices in the last {DAYS} days. A share is recorded when a store
        device sends an item to a shopper&rsquo;s phone (or the other way round).
      </p>
    );
  return <BarChart bars={data.shares} title="Items shared between devices, by direction" />;
}

function Trending({ data }: { data: Dashboard }) {
  const { day, items, linked } = data.trending;
  if (day === null || items.length === 0)
    return (
      <p className="empty-state">
        No trending items yet. They are worked out every night from the last {TRENDING_DAYS} days of
        shopper activity, so they appear the day after the first views, likes, shares and cart or
        wishlist adds arrive.
      </p>
    );
  return (
    <>
      <p id="trend-score">
        The <strong>trend score</strong> adds up what shoppers did with an item in the{' '}
        {TRENDING_DAYS} days up to that day, in every store: by default a view counts 1, a like 3, a
        share 5, an add to cart 4 and an add to wishlist 2, and each action counts half as much for
        every day since it happened. The higher the score, the more recent interest.
      </p>
      <table className="cards" aria-describedby="trend-score">
        <caption>Trending on {shortDay(day, true)}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Trend score</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <th scope="row">
                {linked && item.inCatalog ? (
                  <PageLink to={`items/${item.id}`}>{item.title}</PageLink>
                ) : (
                  item.title
                )}
                {!item.inCatalog && <span className="muted"> (no longer in the catalog)</span>}
              </th>
              <td data-label="Trend score">{item.score.toFixed(1)}</td>
              <td data-label="Actions">{item.actions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function DashboardPage() {
  const access = useAccess();
  const {
    data,
    error,
    isFetching: loading,
    refetch,
  } = useQuery({ queryKey: ['dashboard'], queryFn: () => loadDashboard(access) });
  const [updatedRef, focusUpdated] = useFocusAfter<HTMLParagraphElement>();
  const [updatedAt, setUpdatedAt] = useState<Date>();
  useEffect(() => {
    if (!loading) setUpdatedAt(new Date());
  }, [loading]);

  return (
    <div className="dashboard-page">
      <PageTitle>Dashboard</PageTitle>
      <div className="dashboard-bar">
        <button
          type="button"
          onClick={() => {
            void refetch();
            // The button is disabled while the page reloads: the focus goes to the status.
            focusUpdated();
          }}
          disabled={loading}
        >
          Refresh
        </button>
        <p ref={updatedRef} tabIndex={-1} role="status" className="muted">
          {loading
            ? 'Loading…'
            : updatedAt &&
              `Updated at ${updatedAt.toLocaleTimeString(undefined, { timeStyle: 'short' })}`}
        </p>
      </div>
      <ErrorMessage error={error ?? undefined} />
      {data && (
        <>
          <Section title={`Shopper activity, last ${DAYS} days`}>
            <Activity data={data} />
          </Section>
          <Section title="Top trending items">
            <Trending data={data} />
          </Section>
          <Section title={`Items shared between devices, last ${DAYS} days`}>
            <Shares data={data} />
          </Section>
        </>
      )}
    </div>
  );
}
