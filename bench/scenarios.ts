// The load scenarios: each names what it measures, how to build its requests, and its target
// as a ratio of one of the two baselines measured in the same run.
import type { Request as AutocannonRequest } from 'autocannon';

export interface BenchContext {
  tenantHost: string;
  appId: string;
  secret: string;
  token: string;
}

export interface Scenario {
  name: string;
  /** Requests for autocannon (one entry, or a setupRequest that varies the path). */
  requests: (ctx: BenchContext) => AutocannonRequest[];
  target?: { baseline: 'health' | 'ideal'; minRatio: number };
}

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
];
