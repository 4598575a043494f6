// The load scenarios: each names what it measures, how to build its requests, and its target
// as a ratio of one of the two baselines measured in the same run.
import { randomUUID } from 'node:crypto';
import type { Request as AutocannonRequest } from 'autocannon';
import { ANALYTICS_SCENARIOS, type AnalyticsSeed } from './analytics-scenarios.ts';
import { nearStorePath } from './company-stores.ts';
import { STORAGE_SCENARIOS, type AssetSeed } from './storage-scenarios.ts';

/** The search catalog's tenant: its host, a token of it, a brand and a price type of it. */
export interface SearchContext {
  host: string;
  token: string;
  brandId: number;
  priceTypeId: number;
}

export interface BenchContext {
  tenantHost: string;
  appId: string;
  secret: string;
  token: string;
  /** The seeded catalog's item ids (see seed-catalog.ts). */
  minItemId: number;
  maxItemId: number;
  analytics?: AnalyticsSeed;
  /** The search catalog's tenant (see search-seed.ts), when a search scenario runs. */
  search?: SearchContext;
  /** The AssetUrl scenarios' image and video (see storage-seed.ts), when one of them runs. */
  assets?: AssetSeed;
}

export interface Scenario {
  name: string;
  /** Requests for autocannon (one entry, or a setupRequest that varies the path). */
  requests: (ctx: BenchContext) => AutocannonRequest[];
  /** Large binary bodies: measured with autocannon dropping them (see autocannon-bodies.ts). */
  dropBodies?: boolean;
  /** Target: req/s at least minRatio × the baseline's, or × another scenario's (relativeTo). */
  target?: (
    { baseline: 'health' | 'ideal'; minRatio: number } | { relativeTo: string; minRatio: number }
  ) & {
    /** The engines the target is set for (the catalog's are PostgreSQL's); all when left out. */
    engines?: readonly Engine[];
    /** Also: p99 at most this many times p50, and/or at most this many milliseconds. */
    maxP99OverP50?: number;
    maxP99Ms?: number;
  };
}

export type Engine = 'pglite' | 'postgres';
const POSTGRES_ONLY = ['postgres'] as const;

const randomItem = (ctx: BenchContext) =>
  ctx.minItemId + Math.floor(Math.random() * (ctx.maxItemId - ctx.minItemId + 1));

const accept = 'application/vnd.xomni.api-v4-0';

/** POST /private/catalog/items on the search tenant (words planted by search-seed.ts). */
const itemSearch = (
  name: string,
  body: (ctx: BenchContext) => object,
  target: Scenario['target'],
): Scenario => ({
  name: `POST /private/catalog/items: ${name}`,
  requests: (ctx) => [
    {
      method: 'POST',
      path: '/private/catalog/items',
      headers: {
        host: ctx.search!.host,
        accept,
        authorization: `Bearer ${ctx.search!.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body(ctx)),
    },
  ],
  target,
});
const navigations = { IncludeStaticNavigation: true, IncludeDynamicNavigation: true };
const searchTarget = {
  baseline: 'ideal',
  minRatio: 0.1,
  maxP99OverP50: 10,
  engines: POSTGRES_ONLY,
} as const;
export const SEARCH_SCENARIOS: Scenario[] = [
  itemSearch('1% word + navigations', () => ({ Query: 'lantern', ...navigations }), searchTarget),
  itemSearch('30% word + navigations', () => ({ Query: 'classic', ...navigations }), {
    baseline: 'ideal',
    minRatio: 0,
    maxP99Ms: 250,
    engines: POSTGRES_ONLY,
  }),
  itemSearch(
    'filters only + navigations',
    (ctx) => ({
      BrandId: ctx.search!.brandId,
      PriceTypeId: ctx.search!.priceTypeId,
      MaxPrice: 300,
      ...navigations,
    }),
    searchTarget,
  ),
  itemSearch('typo ("lanturn")', () => ({ Query: 'lanturn' }), searchTarget),
  itemSearch(
    'deep page (Skip 5000)',
    () => ({ Skip: 5000, Take: 20, OrderedPropertyName: 'Title' }),
    searchTarget,
  ),
];

const ITEM_CREATE = 'POST /private/catalog/item (create, no Idempotency-Key)';

/**
 * Item creation without and with an Idempotency-Key (a new key per request, as a client sends
 * on first tries): the pair's ratio is the cost of the key (its claim and the stored answer).
 */
function itemCreateScenarios(): Scenario[] {
  const create = (withKey: boolean) => (ctx: BenchContext) => [
    {
      method: 'POST' as const,
      path: '/private/catalog/item',
      headers: {
        host: ctx.tenantHost,
        accept,
        authorization: `Bearer ${ctx.token}`,
        'content-type': 'application/json',
      },
      setupRequest: (req: AutocannonRequest) => {
        const unique = randomUUID();
        return {
          ...req,
          headers: { ...req.headers, ...(withKey ? { 'idempotency-key': unique } : {}) },
          body: JSON.stringify({ Title: `Bench lamp ${unique}`, SKU: `bench-${unique}` }),
        };
      },
    },
  ];
  return [
    { name: ITEM_CREATE, requests: create(false) },
    {
      name: 'POST /private/catalog/item (create, unique Idempotency-Key)',
      requests: create(true),
      target: { relativeTo: ITEM_CREATE, minRatio: 0.8 },
    },
  ];
}

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
  ...itemCreateScenarios(),
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
  ...STORAGE_SCENARIOS,
  ...SEARCH_SCENARIOS,
];
