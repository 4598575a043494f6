// The analytics scenarios: 1000-record ingestion batches over HTTP (against the bare-client
// multi-row INSERT baseline of analytics-baseline.ts, measured in the same run), and the first
// and a deep log page of the seeded table (analytics-seed.ts).
import type { Scenario } from './scenarios.ts';
import { apiBatch } from './analytics-rows.ts';

const BASELINE = 'bare client: multi-row INSERT per 1000-record batch (baseline)';
const FIRST_PAGE = 'GET …/servercounters/ItemView/logs?take=100 (first page)';
const accept = 'application/vnd.xomni.api-v4-0';

export interface AnalyticsSeed {
  rows: number;
  from: string;
  to: string;
  deepToken: string;
}

// Made once: the batches are dated before the run starts (never in the future).
const bodies = Array.from({ length: 10 }, (_, i) => JSON.stringify(apiBatch(i)));

const logsPath = (seed: AnalyticsSeed | undefined, token?: string) =>
  seed
    ? `/private/analytics/servercounters/ItemView/logs?take=100&from=${encodeURIComponent(seed.from)}&to=${encodeURIComponent(seed.to)}` +
      (token ? `&continuationKey=${encodeURIComponent(token)}` : '')
    : '/';

export const ANALYTICS_SCENARIOS: Scenario[] = [
  {
    name: 'POST /analytics/logs (1000-record batches)',
    // One request per body, each built once: autocannon sends them in turn on every connection
    // (a setupRequest would rebuild the 184 KB request each time, on the same two cores as the
    // server; the baseline's client gets its batches ready-made too).
    requests: (ctx) =>
      bodies.map((body) => ({
        method: 'POST' as const,
        path: '/analytics/logs',
        headers: {
          host: ctx.tenantHost,
          accept,
          authorization: `Bearer ${ctx.token}`,
          'content-type': 'application/json',
        },
        body,
      })),
    // Rows/s ≥ 1.5 × the bare client's rows/s: batches are 1000 rows on both sides.
    target: { relativeTo: BASELINE, minRatio: 1.5, engines: ['postgres'] },
  },
  {
    name: FIRST_PAGE,
    requests: (ctx) => [
      {
        method: 'GET',
        path: logsPath(ctx.analytics),
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
      },
    ],
  },
  {
    name: 'GET …/servercounters/ItemView/logs?take=100 (deep page, 500 before the end)',
    requests: (ctx) => [
      {
        method: 'GET',
        path: logsPath(ctx.analytics, ctx.analytics?.deepToken),
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
      },
    ],
    // "Within 2× of the first page": at least half its req/s.
    target: { relativeTo: FIRST_PAGE, minRatio: 0.5, engines: ['postgres'] },
  },
];
