// Shared helpers of the analytics tests: a valid sample record of every ingested counter (built
// from the field specs, so a new field is covered), ingestion and log-page calls.
import { expect } from 'vitest';
import {
  COUNTERS,
  type CounterSpec,
  type FieldSpec,
} from '../../../src/modules/analytics/analytics-counters.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export const LOGS = '/analytics/logs';
export const SERVER = '/private/analytics/servercounters';

export const INGESTED = COUNTERS.filter((c) => c.ingested);

/** OLE Automation day number of a UTC calendar date (YYYY-MM-DD). */
export const oaDate = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000 + 25_569;

let serial = 0;
export function sampleValue(spec: FieldSpec, n = ++serial): unknown {
  switch (spec.type) {
    case 'id':
    case 'int':
      return 1000 + n;
    case 'number':
      return 28.5 + n / 1000;
    case 'bool':
      return n % 2 === 0;
    case 'uuid':
      return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    case 'string':
    case 'text':
      return `${spec.name} ${n}`;
    case 'intArray':
      return [n, n + 1];
    case 'profiles':
      return [
        { Id: `u${n}`, PhotoUrl: null, DisplayName: `User ${n}`, FirstName: 'A', LastName: 'B' },
      ];
  }
}

/** A record of `counter` with every field set. */
export function sample(counter: CounterSpec, createdDate?: string): Record<string, unknown> {
  const record: Record<string, unknown> = { Counter: counter.name };
  for (const spec of counter.fields) record[spec.name] = sampleValue(spec);
  if (createdDate) record.CreatedDate = createdDate;
  return record;
}

export const ingest = (api: TestApi, tenant: TestTenant, body: unknown, token?: string) =>
  api.call({ method: 'POST', url: LOGS, tenant, body, ...(token ? { token } : {}) });

export async function ingestOk(api: TestApi, tenant: TestTenant, body: unknown[]) {
  const response = await ingest(api, tenant, body);
  expect(response.statusCode, response.body).toBe(202);
  expect(response.json()).toEqual({ Data: { Accepted: body.length } });
}

export interface LogPage {
  ContinuationToken: string | null;
  Logs: Record<string, unknown>[];
}

export const logs = (api: TestApi, tenant: TestTenant, counter: string, query: string) =>
  api.call({ url: `${SERVER}/${counter}/logs?${query}`, tenant });

export async function logsOk(api: TestApi, tenant: TestTenant, counter: string, query: string) {
  const response = await logs(api, tenant, counter, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LogPage>();
}

/** Every page of a query, following continuation tokens. */
export async function allPages(
  api: TestApi,
  tenant: TestTenant,
  counter: string,
  query: string,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let token: string | null = null;
  do {
    const page: LogPage = await logsOk(
      api,
      tenant,
      counter,
      token ? `${query}&continuationKey=${encodeURIComponent(token)}` : query,
    );
    out.push(...page.Logs);
    token = page.ContinuationToken;
  } while (token);
  return out;
}
