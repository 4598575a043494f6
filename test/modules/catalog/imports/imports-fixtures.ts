// Helpers of the import and export tests: an API with a blob store on a fresh directory and short
// job intervals, and calls that start an import and wait for a job to end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import {
  startTestApi,
  useStartedApi,
  type TestApi,
  type TestTenant,
} from '../../../support/test-api.ts';
import { expectStatus } from '../../../support/expectations.ts';

export interface ImportJobJson {
  Id: number;
  State: 'Queued' | 'Running' | 'Succeeded' | 'Failed' | 'Cancelled';
  Phase: 'Validating' | 'Writing';
  Format: 'jsonl' | 'csv';
  ErrorPolicy: 'RejectAll' | 'SkipFailedRows';
  CreateMissing: boolean;
  SourceAssetId: number;
  RowsRead: number;
  RowsWritten: number;
  RowsFailed: number;
  Percentage: number;
  RowsPerSecond: number;
  Error: string | null;
  ResultsUrl: string;
}

export interface ExportJobJson {
  Id: number;
  State: 'Queued' | 'Running' | 'Succeeded' | 'Failed';
  ItemsWritten: number;
  AssetId: number | null;
  AssetUrl: string | null;
  Error: string | null;
}

export interface RowResult {
  Line: number;
  Status: 'Written' | 'Failed';
  ItemId?: number;
  /** A written record of another type: the resource it named. */
  CategoryId?: number;
  BrandId?: number;
  TagId?: number;
  PriceTypeId?: number;
  TypeId?: number;
  Errors?: { Field: string; Message: string; Code?: string }[];
  /** How many errors there were beyond the 100 Errors lists. */
  ErrorsOmitted?: number;
}

export const IMPORTS = '/private/catalog/imports';
export const EXPORTS = '/private/catalog/exports';
export const JSONL = 'application/x-ndjson';
export const CSV = 'text/csv';

export async function startImportApi(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-imports-'));
  const api = await startTestApi({
    DATA_DIR: dataDir,
    JOB_POLLING_INTERVAL_SECONDS: '1',
    CATALOG_JOB_LEASE_SECONDS: '2',
    ...env,
  });
  const close = api.close.bind(api);
  return Object.assign(api, {
    close: async () => {
      await close();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

/** The file's import API, started before its tests and closed after them (useTestApi). */
export const useImportApi = (env: Record<string, string> = {}) =>
  useStartedApi(() => startImportApi(env));

export const jsonl = (records: unknown[]) =>
  records.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function postImport(
  api: TestApi,
  tenant: TestTenant,
  body: string | undefined,
  contentType: string,
  query = '',
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'POST',
    url: `${IMPORTS}${query ? `?${query}` : ''}`,
    headers: {
      host: tenant.host,
      authorization: `Bearer ${tenant.token}`,
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    ...(body !== undefined ? { payload: body } : {}),
  });
}

const ENDED = new Set(['Succeeded', 'Failed', 'Cancelled']);

/** Polls a job until it ends (or `until` holds); answers its last state. */
export async function waitForJob<T extends { State: string }>(
  api: TestApi,
  tenant: TestTenant,
  url: string,
  until: (job: T) => boolean = (job) => ENDED.has(job.State),
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.call({ url, tenant });
    expectStatus(response, 200);
    const job = response.json<T>();
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${url} still ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts an import and waits for its end. */
export async function runImport(
  api: TestApi,
  tenant: TestTenant,
  body: string,
  contentType: string,
  query = '',
): Promise<ImportJobJson> {
  const response = await postImport(api, tenant, body, contentType, query);
  expectStatus(response, 202);
  const job = response.json<ImportJobJson>();
  return waitForJob<ImportJobJson>(api, tenant, `${IMPORTS}/${job.Id}`);
}

export async function importResults(
  api: TestApi,
  tenant: TestTenant,
  id: number,
): Promise<RowResult[]> {
  const response = await api.call({ url: `${IMPORTS}/${id}/results`, tenant });
  expectStatus(response, 200);
  return response.body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RowResult);
}

/** Imports an uploaded asset (SkipFailedRows, createMissing) and waits for the job's end. */
export async function importAsset(
  api: TestApi,
  tenant: TestTenant,
  assetId: number,
  timeoutMs: number,
): Promise<ImportJobJson> {
  const response = await postImport(
    api,
    tenant,
    undefined,
    '',
    `assetId=${assetId}&errorPolicy=SkipFailedRows&createMissing=true`,
  );
  expectStatus(response, 202);
  return waitForJob<ImportJobJson>(
    api,
    tenant,
    `${IMPORTS}/${response.json<ImportJobJson>().Id}`,
    undefined,
    timeoutMs,
  );
}

export interface MemorySample {
  at: number;
  heap: number;
  rss: number;
}

/** Samples this process's heap and RSS every `intervalMs` until `stop()`. */
export function sampleMemory(intervalMs: number): { samples: MemorySample[]; stop: () => void } {
  const samples: MemorySample[] = [];
  const take = () => {
    const { heapUsed, rss } = process.memoryUsage();
    samples.push({ at: Date.now(), heap: heapUsed, rss });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { samples, stop: () => clearInterval(timer) };
}
