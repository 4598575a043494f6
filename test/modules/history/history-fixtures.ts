// Helpers of the change history's tests: the answers' shapes and reading every page of a list.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export interface HistoryEntryJson {
  Id: number;
  ResourceType: string;
  ResourceId: string;
  Action: string;
  Version: number;
  PreviousVersion: number | null;
  ChangedAt: string;
  Actor: { Type: string; Id?: string; Name?: string };
  RequestId?: string;
  ClientAddress?: string;
  UserAgent?: string;
  IdempotencyKey?: string;
  Operation?: string;
  RestoredFrom?: number;
  Changes: { Path: string; Old: unknown; New: unknown }[];
  Sequence: number | null;
  Hash: string | null;
  Data?: Record<string, unknown> | null;
}

export interface HistoryPageJson {
  Results: HistoryEntryJson[];
  Continuation: string | null;
}

/** A page's answer, checked to be 200. */
export function pageOf(response: LightMyRequestResponse): HistoryPageJson {
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HistoryPageJson>();
}

/** Every entry of a list, page after page of `take`, with the number of pages read. */
export async function allPages(
  api: TestApi,
  tenant: TestTenant,
  url: string,
  take: number,
  token?: string,
): Promise<{ entries: HistoryEntryJson[]; pages: number }> {
  const entries: HistoryEntryJson[] = [];
  let continuation: string | null = null;
  let pages = 0;
  const join = url.includes('?') ? '&' : '?';
  do {
    const query: string =
      `Take=${take}` +
      (continuation === null ? '' : `&Continuation=${encodeURIComponent(continuation)}`);
    const page = pageOf(
      await api.call({ url: `${url}${join}${query}`, tenant, ...(token ? { token } : {}) }),
    );
    expect(page.Results.length).toBeLessThanOrEqual(take);
    entries.push(...page.Results);
    continuation = page.Continuation;
    pages++;
  } while (continuation !== null && pages < 1000);
  return { entries, pages };
}
