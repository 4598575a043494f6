// Catalog import and export in a browser, at laptop and phone sizes: a small JSONL file with a
// bad row followed to its end with the row's problem in plain words; a file refused as a whole;
// an import cancelled while it runs (held between chunks by the test); an export followed to its file, downloaded and read.
// The focus goes to the job's status after each action; every page passes checkPage.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import { screenshotOnFailure, startListeningApi } from './console-browser-fixtures.ts';
import {
  checkPage,
  expectFocused,
  openConsole,
  PAGE_SHOWS,
  VIEWPORT_NAMES,
  type ConsoleSession,
} from './console-session-fixtures.ts';
import { createMember, GOOD_PASSWORD } from '../members/members-fixtures.ts';

/** An import or export may take a while on a loaded machine; this only bounds a failure. */
const JOB_ENDS = { timeout: 60_000 };

let api: TestApi;
let port: number;
let browser: Browser;
let dataDir: string;

/**
 * Imports run freely unless a test holds them: then the chunks after the first `holdAfter` wait
 * before committing until the test lets them go (an import stays Running for as long as the test
 * needs, whatever the machine's speed).
 */
const importGate = {
  holdAfter: Infinity,
  chunks: 0,
  waiting: [] as (() => void)[],
  async beforeChunk(): Promise<void> {
    if (++this.chunks <= this.holdAfter) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  },
  hold(chunks: number) {
    this.chunks = 0;
    this.holdAfter = chunks;
  },
  release() {
    this.holdAfter = Infinity;
    for (const resolve of this.waiting.splice(0)) resolve();
  },
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'omni-console-bulk-'));
  ({ api, port } = await startListeningApi(
    { DATA_DIR: dataDir, JOB_POLLING_INTERVAL_SECONDS: '1' },
    { catalogImportBeforeChunk: () => importGate.beforeChunk() },
  ));
  browser = await launchBrowser();
});
afterAll(async () => {
  importGate.release();
  await browser?.close();
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const jsonl = (records: unknown[]) =>
  Buffer.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n');

async function apiGet<T>(tenant: TestTenant, url: string): Promise<T> {
  const response = await api.call({ url, tenant });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

async function apiCall(tenant: TestTenant, method: string, url: string, body: unknown) {
  const response = await api.call({ method, url, tenant, body });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
}

interface ImportJson {
  Id: number;
  State: string;
  RowsWritten: number;
  RowsFailed: number;
}

describe.each(VIEWPORT_NAMES)(
  'catalog import and export (%s)',
  { timeout: 120_000 },
  (viewport) => {
    let tenant: TestTenant;
    let session: ConsoleSession;

    beforeAll(async () => {
      tenant = await api.createTenant(`bulk-${viewport}`);
      await createMember(api, tenant, 'olivia', ['owner']);
      session = await openConsole(browser, `http://${tenant.host}:${port}`, viewport);
      await session.signIn('olivia', GOOD_PASSWORD);
    });
    afterAll(() => session?.close());
    afterEach(async (test) => {
      if (test.task.result?.state === 'fail')
        await screenshotOnFailure(session?.page, `bulk ${viewport} ${test.task.name}`);
    });

    const status = () => session.page.locator('[data-state]');
    const chooseFile = (name: string, mimeType: string, buffer: Buffer) =>
      session.page.getByLabel('File (JSONL or CSV)').setInputFiles({ name, mimeType, buffer });

    it('imports a JSONL file with a bad row: progress to done, and the row in plain words', async () => {
      const { page } = session;
      await session.openPage('Catalog import');
      await page.getByText('No file has been imported yet.').waitFor();
      await checkPage(session, 'catalog-import-empty');

      await chooseFile(
        'autumn.jsonl',
        'application/x-ndjson',
        jsonl([
          { Title: 'Wool scarf', SKU: 'AU-1' },
          { Title: 'Rain boots', SKU: 'AU-2' },
          { Title: '', SKU: 'AU-3' },
          { Title: 'Knit hat', SKU: 'AU-4' },
        ]),
      );
      await page.getByLabel('Skip that row and import the others').check();
      await page.getByRole('button', { name: 'Start import' }).click();
      await expectFocused(status(), 'the import status');
      await expect
        .poll(() => status().textContent(), JOB_ENDS)
        .toBe('3 of 4 rows imported, 1 with problems. The rows with problems are listed below.');
      expect(await status().getAttribute('class')).toContain('warning');
      expect(await page.locator('[data-records]').textContent()).toBe('4 of 4');
      const problems = page.getByRole('table', { name: /^Rows with problems/ });
      await problems.waitFor();
      expect(await problems.locator('tbody tr').getByRole('cell').allTextContents()).toEqual([
        '3',
        'AU-3',
        'Title',
        'Title is empty. Fill it in.',
      ]);
      await expectFocused(status(), 'the import status once done');

      const items = await apiGet<{ Results: { Title: string }[] }>(
        tenant,
        '/private/catalog/items?take=100',
      );
      expect(items.Results.map((i) => i.Title).sort()).toEqual([
        'Knit hat',
        'Rain boots',
        'Wool scarf',
      ]);
      const past = page.getByRole('table', { name: 'Imports (1)' });
      await past.waitFor();
      expect(await past.locator('tbody tr').first().innerText()).toMatch(
        /Done\s+3 imported\s+1 with problems/,
      );
      await checkPage(session, 'catalog-import');
    });

    it('a file with a bad row under "import nothing" imports nothing and names the row', async () => {
      const { page } = session;
      await chooseFile(
        'broken.csv',
        'text/csv',
        Buffer.from('Title,SKU,Rating\nLinen shirt,BR-1,4\nCotton shirt,BR-2,eleven\n'),
      );
      expect(await page.getByLabel('Format').inputValue()).toBe('csv');
      await page.getByLabel('Import nothing: check every row first').check();
      await page.getByRole('button', { name: 'Start import' }).click();
      await expectFocused(status(), 'the import status');
      await expect
        .poll(() => status().textContent(), JOB_ENDS)
        .toBe('Nothing was imported: 1 row has a problem. Fix it in the file and import it again.');
      const problems = page.getByRole('table', { name: /^Rows with problems/ });
      await problems.waitFor();
      const cells = await problems.locator('tbody tr').first().getByRole('cell').allTextContents();
      expect(cells).toEqual(['3', 'BR-2', 'Rating', 'Rating must be a number.']);
      const items = await apiGet<{ TotalCount: number }>(tenant, '/private/catalog/items?take=1');
      expect(items.TotalCount).toBe(3);

      // An earlier import shown again from the list, with its problem rows.
      const past = page.getByRole('table', { name: 'Imports (2)' });
      await past.waitFor();
      await past
        .getByRole('button', { name: /^Show import \d+$/ })
        .nth(1)
        .click();
      await expectFocused(status(), 'the status of the import shown');
      await expect
        .poll(() => status().textContent(), PAGE_SHOWS)
        .toBe('3 of 4 rows imported, 1 with problems. The rows with problems are listed below.');
      await expect
        .poll(() => problems.locator('tbody tr').getByRole('cell').allTextContents(), PAGE_SHOWS)
        .toEqual(['3', 'AU-3', 'Title', 'Title is empty. Fill it in.']);
    });

    it('exports the catalog; the download link gives the file', async () => {
      const { page } = session;
      await session.openPage('Catalog export');
      await page.getByText('The catalog has not been exported yet.').waitFor();
      await page.getByLabel('Format').selectOption('jsonl');
      await page.getByRole('button', { name: 'Start export' }).click();
      await expectFocused(status(), 'the export status');
      await expect
        .poll(() => status().textContent(), JOB_ENDS)
        .toBe('Done: 3 items written to the file.');
      await expectFocused(status(), 'the export status once done');
      const link = page.getByRole('link', { name: /^Download catalog-export-\d+\.jsonl$/ });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(/^catalog-export-\d+\.jsonl$/);
      const file = await readFile(await download.path(), 'utf8');
      const titles = file
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { RecordType?: string; Title?: string })
        .filter((record) => record.RecordType === undefined || record.RecordType === 'Item')
        .map((record) => record.Title)
        .sort();
      expect(titles).toEqual(['Knit hat', 'Rain boots', 'Wool scarf']);
      // The same bytes as the API serves at the export's AssetUrl.
      const href = (await link.getAttribute('href'))!;
      const served = await api.app.inject({
        url: new URL(href).pathname,
        headers: { host: tenant.host },
      });
      expect(served.body).toBe(file);

      const past = page.getByRole('table', { name: 'Exports (1)' });
      await past.waitFor();
      await past.getByRole('link', { name: /^catalog-export-\d+\.jsonl$/ }).waitFor();
      await checkPage(session, 'catalog-export');
    });

    it('cancels an import while it runs', async () => {
      const { page } = session;
      await session.openPage('Catalog import');
      const records = Array.from({ length: 5_000 }, (_, i) => ({
        Title: `Bulk item ${i}`,
        SKU: `BULK-${i}`,
      }));
      // Two chunks of 1,000 commit, then the import waits (Running) until the test lets it go.
      importGate.hold(2);
      try {
        await chooseFile('large.jsonl', 'application/x-ndjson', jsonl(records));
        await page.getByLabel('Skip that row and import the others').check();
        await page.getByRole('button', { name: 'Start import' }).click();
        await expectFocused(status(), 'the import status');
        // Followed live: the state and the records done out of the file's total.
        await expect
          .poll(() => page.locator('[data-records]').textContent(), JOB_ENDS)
          .toBe('2,000 of 5,000');
        expect(await status().getAttribute('data-state')).toBe('Running');
        expect(await status().textContent()).toBe('Importing…');
        await page.getByRole('button', { name: 'Cancel import' }).click();
        await expect.poll(() => status().getAttribute('data-state'), PAGE_SHOWS).toBe('Cancelled');
      } finally {
        importGate.release();
      }
      expect(await status().textContent()).toBe(
        'Cancelled: 2,000 records had been imported before it stopped.',
      );
      await expectFocused(status(), 'the import status once cancelled');
      expect(await page.getByRole('button', { name: 'Cancel import' }).count()).toBe(0);

      // The chunk held when the import was cancelled is not written.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const jobs = await apiGet<{ Results: ImportJson[] }>(tenant, '/private/catalog/imports');
      expect(jobs.Results[0]).toMatchObject({ State: 'Cancelled', RowsWritten: 2000 });
      const items = await apiGet<{ TotalCount: number }>(tenant, '/private/catalog/items?take=1');
      expect(items.TotalCount).toBe(3 + 2000);
      await page.getByRole('table', { name: 'Imports (3)' }).getByText('Cancelled').waitFor();
      expect(session.pageErrors).toEqual([]);
    });

    it('says what a retailer can do about each row of a 9-row CSV with 6 bad rows', async () => {
      const { page } = session;
      await apiCall(tenant, 'POST', '/private/catalog/item', { Title: 'Old coat', SKU: 'OLD-1' });
      const csv = [
        'Title,SKU,Brand,CategoryPath,Prices',
        'Good one,W-1,,,',
        'Good two,W-2,,,',
        'Good three,W-3,,,',
        'No brand,W-4,Nordwind,,',
        'No price type,W-5,,,"[{""PriceTypeSymbol"":""GBP"",""NormalPrice"":10}]"',
        'No category,W-6,,"[""Clothing"",""Outerwear"",""Jackets""]",',
        ',W-7,,,',
        'Taken SKU,OLD-1,,,',
        'Twice,W-1,,,',
      ].join('\n');
      await chooseFile('winter.csv', 'text/csv', Buffer.from(`${csv}\n`));
      await page.getByLabel('Skip that row and import the others').check();
      await page.getByRole('button', { name: 'Start import' }).click();
      await expect
        .poll(() => status().textContent(), JOB_ENDS)
        .toBe('3 of 9 rows imported, 6 with problems. The rows with problems are listed below.');
      expect(await status().getAttribute('class')).toContain('warning');
      const problems = page.getByRole('table', { name: /^Rows with problems/ });
      await problems.waitFor();
      const rows = await problems
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) =>
            Array.from(
              (tr as unknown as { cells: ArrayLike<{ textContent: string }> }).cells,
              (cell) => cell.textContent,
            ),
          ),
        );
      const create =
        'Create it in the catalog first, or import again with the option to create what the catalog lacks (createMissing).';
      expect(rows).toEqual([
        ['5', 'W-4', 'Brand', `The catalog has no brand named "Nordwind". ${create}`],
        [
          '6',
          'W-5',
          'Price type symbol',
          `The catalog has no price type with the symbol "GBP". ${create}`,
        ],
        ['7', 'W-6', 'Category path', `The catalog has no category "Clothing". ${create}`],
        ['8', 'W-7', 'Title', 'Title is missing. Every row needs a Title.'],
        [
          '9',
          'OLD-1',
          'SKU',
          'The SKU "OLD-1" is also the SKU of an item already in the catalog. Give each item a SKU of its own, or leave SKU empty.',
        ],
        [
          '10',
          'W-1',
          'SKU',
          'The SKU "W-1" is also the SKU of line 2 of the file. Give each item a SKU of its own, or leave SKU empty.',
        ],
      ]);
      await checkPage(session, 'catalog-import-problems');
      // The way out for the rows that name what the catalog lacks: the option, ticked.
      await page.getByRole('button', { name: 'Tick it and choose the file again' }).click();
      expect(
        await page
          .getByLabel(/Create the categories, brands, tags, price types and attribute types/)
          .isChecked(),
      ).toBe(true);
      await expectFocused(page.getByLabel('File (JSONL or CSV)'), 'the file field');
    });
  },
);
