// GET /private/catalog/imports and GET /private/catalog/exports: the tenant's jobs, newest first,
// paged, each as its own GET answers it; another tenant's jobs never show.
import { describe, expect, it } from 'vitest';
import { useTenant } from '../../../support/test-api.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import {
  EXPORTS,
  IMPORTS,
  JSONL,
  jsonl,
  runImport,
  useImportApi,
  waitForJob,
  type ExportJobJson,
  type ImportJobJson,
} from './imports-fixtures.ts';

const api = useImportApi();
const acme = useTenant(api, 'lists-acme');
const other = useTenant(api, 'lists-other');

interface JobPage<T> {
  Results: T[];
  TotalCount: number;
}

describe('GET /private/catalog/imports', () => {
  it("lists the tenant's imports newest first, as GET of each answers them", async () => {
    const first = await runImport(api, acme, jsonl([{ Title: 'One', SKU: 'L-1' }]), JSONL);
    const second = await runImport(
      api,
      acme,
      jsonl([{ Title: 'Two', SKU: 'L-2' }, { Title: '' }]),
      JSONL,
      'errorPolicy=SkipFailedRows',
    );
    expect(second).toMatchObject({ State: 'Succeeded', RowsWritten: 1, RowsFailed: 1 });
    const response = await api.call({ url: IMPORTS, tenant: acme });
    expectStatus(response, 200);
    const page = response.json<JobPage<ImportJobJson>>();
    expect(page.TotalCount).toBe(2);
    expect(page.Results.map((job) => job.Id)).toEqual([second.Id, first.Id]);
    for (const job of page.Results) {
      const one = await api.call({ url: `${IMPORTS}/${job.Id}`, tenant: acme });
      // RowsPerSecond of an ended job is fixed; every field is the same.
      expect(job).toEqual(one.json());
    }
  });

  it('pages with skip and take; TotalCount counts them all', async () => {
    const response = await api.call({ url: `${IMPORTS}?skip=1&take=1`, tenant: acme });
    expectStatus(response, 200);
    const page = response.json<JobPage<ImportJobJson>>();
    expect(page.TotalCount).toBe(2);
    expect(page.Results).toHaveLength(1);
    expect(page.Results[0]!.RowsWritten).toBe(1);
    const past = await api.call({ url: `${IMPORTS}?skip=5`, tenant: acme });
    expect(past.json<JobPage<ImportJobJson>>()).toEqual({ Results: [], TotalCount: 2 });
  });

  it("shows no other tenant's import", async () => {
    const response = await api.call({ url: IMPORTS, tenant: other });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Results: [], TotalCount: 0 });
  });

  it('refuses bad paging with 400', async () => {
    expectError(await api.call({ url: `${IMPORTS}?take=0`, tenant: acme }), 400);
    expectError(await api.call({ url: `${IMPORTS}?take=1001`, tenant: acme }), 400);
    expectError(await api.call({ url: `${IMPORTS}?skip=-1`, tenant: acme }), 400);
  });
});

describe('GET /private/catalog/exports', () => {
  it("lists the tenant's exports newest first, as GET of each answers them", async () => {
    const ids: number[] = [];
    for (const Format of ['jsonl', 'csv']) {
      const started = await api.call({
        method: 'POST',
        url: EXPORTS,
        tenant: acme,
        body: { Format },
      });
      expectStatus(started, 202);
      const job = await waitForJob<ExportJobJson>(api, acme, started.headers.location!);
      expect(job.State).toBe('Succeeded');
      ids.push(job.Id);
    }
    const response = await api.call({ url: EXPORTS, tenant: acme });
    expectStatus(response, 200);
    const page = response.json<JobPage<ExportJobJson & { Format: string }>>();
    expect(page.TotalCount).toBe(2);
    expect(page.Results.map((job) => job.Id)).toEqual(ids.reverse());
    expect(page.Results.map((job) => job.Format)).toEqual(['csv', 'jsonl']);
    for (const job of page.Results) {
      const one = await api.call({ url: `${EXPORTS}/${job.Id}`, tenant: acme });
      expect(job).toEqual(one.json());
      expect(job.AssetUrl).toMatch(/^http/);
    }
    const paged = await api.call({ url: `${EXPORTS}?skip=1&take=1`, tenant: acme });
    expect(paged.json<JobPage<ExportJobJson>>()).toMatchObject({
      TotalCount: 2,
      Results: [{ Id: ids[1] }],
    });
  });

  it("shows no other tenant's export", async () => {
    const response = await api.call({ url: EXPORTS, tenant: other });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ Results: [], TotalCount: 0 });
  });

  it('refuses bad paging with 400', async () => {
    expectError(await api.call({ url: `${EXPORTS}?take=0`, tenant: acme }), 400);
    expectError(await api.call({ url: `${EXPORTS}?skip=x`, tenant: acme }), 400);
  });
});
