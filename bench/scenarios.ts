// The load scenarios: each names what it measures, how to build its requests, and its target
// as a ratio of one of the two baselines measured in the same run.
import type { Request as AutocannonRequest } from 'autocannon';
import { ANALYTICS_SCENARIOS, type AnalyticsSeed } from './analytics-scenarios.ts';
import { nearStorePath } from './company-stores.ts';

export interface BenchContext {
  tenantHost: string;
  appId: string;
  secret: string;
  token: string;
  /** The seeded catalog's item ids (see seed-catalog.ts). */
  minItemId: number;
  maxItemId: number;
  analytics?: AnalyticsSeed;
}

export interface Scenario {
  name: string;
  /** Requests for autocannon (one entry, or a setupRequest that varies the path). */
  requests: (ctx: BenchContext) => AutocannonRequest[];
  /** Target: req/s at least minRatio × the baseline's, or × another scenario's (relativeTo). */
  target?: (
    { baseline: 'health' | 'ideal'; minRatio: number } | { relativeTo: string; minRatio: number }
  ) & {
    /** The engines the target is set for (the catalog's are PostgreSQL's); all when left out. */
    engines?: readonly Engine[];
  };
}

export type Engine = 'pglite' | 'postgres';
const POSTGRES_ONLY = ['postgres'] as const;

const randomItem = (ctx: BenchContext) =>
  ctx.minItemId + Math.floor(Math.random() * (ctx.maxItemId - ctx.minItemId + 1));

const accept = 'application/vnd.xomni.api-v4-0';

export const SERVER_SCENARIOS: Scenario[] = [
  {
    name: 'GET /health/live (baseline)',
    requests: () => [{ method: 'GET', path: '/health/live' }],
  },
  {
    name: 'POST /oauth/token',
    requests: (ctx) => [
      {
        method: 'POST',
        path: '/oauth/token',
        headers: {
          host: ctx.tenantHost,
          authorization: `Basic ${Buffer.from(`${ctx.appId}:${ctx.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      },
    ],
  },
  {
    name: 'GET /management/oauth/apps/{id} (authenticated)',
    requests: (ctx) => [
      {
        method: 'GET',
        path: `/management/oauth/apps/${ctx.appId}`,
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
      },
    ],
    target: { baseline: 'ideal', minRatio: 0.7 },
  },
  {
    name: 'GET /private/catalog/item/{id} (100k items)',
    requests: (ctx) => [
      {
        method: 'GET',
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
        setupRequest: (req) => ({ ...req, path: `/private/catalog/item/${randomItem(ctx)}` }),
      },
    ],
    target: { baseline: 'ideal', minRatio: 0.5, engines: POSTGRES_ONLY },
  },
  {
    name: 'GET /private/catalog/items?take=50 (first page)',
    requests: (ctx) => [
      {
        method: 'GET',
        path: '/private/catalog/items?skip=0&take=50',
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
      },
    ],
    target: { baseline: 'ideal', minRatio: 0.2, engines: POSTGRES_ONLY },
  },
  {
    name: 'GET /private/catalog/items?take=50&skip=50000 (deep page)',
    requests: (ctx) => [
      {
        method: 'GET',
        path: '/private/catalog/items?skip=50000&take=50',
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
      },
    ],
    // "No slower than 3× the first page": at least a third of its req/s.
    target: {
      relativeTo: 'GET /private/catalog/items?take=50 (first page)',
      minRatio: 1 / 3,
      engines: POSTGRES_ONLY,
    },
  },
  ...ANALYTICS_SCENARIOS,
  {
    name: 'GET /company/stores/{lng;lat}/logicaldevices (nearest store, 100k stores, 1M devices)',
    requests: (ctx) => [
      {
        method: 'GET',
        headers: { host: ctx.tenantHost, accept, authorization: `Bearer ${ctx.token}` },
        setupRequest: (req) => ({ ...req, path: nearStorePath() }),
      },
    ],
    target: { baseline: 'ideal', minRatio: 0.3, engines: POSTGRES_ONLY },
  },
];
