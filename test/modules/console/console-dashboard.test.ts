// The dashboard in a browser, at laptop and phone sizes: the empty state says how activity
// arrives; activity in a retailer's words (never a counter's id); trending items by their catalog
// title, linked to the item editor, with what the score means; a visit costs at most three API
// calls; Refresh moves the focus to the update status.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
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

let api: TestApi;
let port: number;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'omni-console-dashboard-'));
  ({ api, port } = await startListeningApi({ DATA_DIR: dataDir }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The API operations a page calls (not the console's files, not sign-in). */
function countApiCalls(page: Page): { calls: string[]; stop: () => void } {
  const calls: string[] = [];
  const listen = (request: Request) => {
    const url = new URL(request.url());
    if (/^\/(private|management|analytics)\//.test(url.pathname))
      calls.push(`${request.method()} ${url.pathname}`);
  };
  page.on('request', listen);
  return { calls, stop: () => page.off('request', listen) };
}

async function createItem(tenant: TestTenant, Title: string): Promise<number> {
  const response = await api.call({
    method: 'POST',
    url: '/private/catalog/item',
    tenant,
    body: { Title },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ Id: number }>().Id;
}

async function ingest(tenant: TestTenant, records: Record<string, unknown>[]) {
  const response = await api.call({
    method: 'POST',
    url: '/analytics/logs',
    tenant,
    body: records,
  });
  expect(response.statusCode, response.body).toBe(202);
}

describe.each(VIEWPORT_NAMES)('the dashboard (%s)', { timeout: 90_000 }, (viewport) => {
  let tenant: TestTenant;
  let session: ConsoleSession;
  let runner: number;

  beforeAll(async () => {
    tenant = await api.createTenant(`dash-${viewport}`);
    await createMember(api, tenant, 'olivia', ['owner']);
    session = await openConsole(browser, `http://${tenant.host}:${port}`, viewport);
  });
  afterAll(() => session?.close());
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshotOnFailure(session?.page, `dashboard ${viewport} ${test.task.name}`);
  });

  it('says what to do while no activity has arrived, after at most 3 API calls', async () => {
    const { page } = session;
    const counted = countApiCalls(page);
    await session.signIn('olivia', GOOD_PASSWORD);
    await page.getByText('No shopper activity in the last 30 days yet.').waitFor();
    await page.getByText(/No trending items yet/).waitFor();
    await page.getByText(/No item was passed between devices/).waitFor();
    counted.stop();
    expect(counted.calls.length, counted.calls.join(', ')).toBeLessThanOrEqual(3);
    // What to do: how events arrive, and where devices and apps are set up.
    expect(await page.locator('main').textContent()).toContain('POST /analytics/logs');
    await page.getByRole('link', { name: 'Stores and devices' }).last().waitFor();
    await page.getByRole('link', { name: 'Apps' }).last().waitFor();
    // No empty chart with a 0–1 axis.
    expect(await page.locator('main svg[role="img"]').count()).toBe(0);
    await checkPage(session, 'dashboard-empty');
  });

  it("shows activity in a retailer's words and the trending items by title, in 3 API calls", async () => {
    const { page } = session;
    runner = await createItem(tenant, 'Trail runner');
    const jacket = await createItem(tenant, 'Rain jacket');
    const now = new Date(Date.now() - 60_000).toISOString();
    await ingest(tenant, [
      { Counter: 'ItemView', ItemId: runner, StoreId: 1, CreatedDate: now },
      { Counter: 'ItemView', ItemId: runner, StoreId: 2, CreatedDate: now },
      { Counter: 'ItemView', ItemId: jacket, CreatedDate: now },
      { Counter: 'AddedShoppingCartItem', ItemId: runner, CreatedDate: now },
      // An item the catalog no longer has: the title its action recorded, and no link.
      { Counter: 'ItemView', ItemId: 999_999, ItemTitle: 'Old scarf', CreatedDate: now },
      {
        Counter: 'OmniShareFromInStoreDeviceToCustomerDevice',
        OmniTicket: '00000000-0000-4000-8000-000000000007',
        CreatedDate: now,
      },
    ]);
    const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
    await api.services.analytics.trending.run(tenantId, now.slice(0, 10));

    // A first visit of the page (a fresh load of the console, signed in).
    const counted = countApiCalls(page);
    await page.goto(`http://${tenant.host}:${port}/console/`);
    const activity = page.getByRole('table', { name: 'Activity by type' });
    await activity.waitFor();
    const trending = page.getByRole('table', { name: /^Trending on / });
    await trending.waitFor();
    await trending.getByRole('link', { name: 'Trail runner' }).waitFor();
    counted.stop();
    expect(counted.calls.length, counted.calls.join(', ')).toBeLessThanOrEqual(3);
    expect(counted.calls.sort()).toEqual([
      'GET /private/analytics/summary/daily',
      'GET /private/analytics/trendingitems',
      'GET /private/catalog/items/search',
    ]);

    const today = (label: string) =>
      activity
        .getByRole('row', { name: new RegExp(`^${label}`) })
        .getByRole('cell')
        .first();
    expect(await today('Item views').textContent()).toBe('4');
    expect(await today('Added to cart').textContent()).toBe('1');
    expect(await today('Shared between devices').textContent()).toBe('1');
    const text = (await page.locator('main').textContent())!;
    for (const id of ['ItemView', 'AddedShoppingCartItem', 'OmniShare', 'TrendingItem'])
      expect(text).not.toContain(id);
    await page
      .getByRole('img', { name: /^Items shared between devices, by direction: / })
      .waitFor();
    await page.getByRole('img', { name: /^Shopper activity per day: Item views 4/ }).waitFor();

    // Trending: titles from the catalog, linked to the item editor; the score explained.
    const rows = trending.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.first().getByRole('rowheader').textContent()).toBe('Trail runner');
    expect(await trending.getByRole('link', { name: 'Rain jacket' }).getAttribute('href')).toBe(
      `/console/items/${jacket}`,
    );
    await trending.getByText('Old scarf (no longer in the catalog)').waitFor();
    expect(await trending.getByRole('link', { name: /Old scarf/ }).count()).toBe(0);
    expect(await page.locator('#trend-score').textContent()).toMatch(
      /trend score adds up what shoppers did .* half as much for every day/,
    );
    await checkPage(session, 'dashboard');

    await trending.getByRole('link', { name: 'Trail runner' }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toBe(`Item ${runner}: Trail runner`);
    expect(new URL(page.url()).pathname).toBe(`/console/items/${runner}`);
  });

  it('Refresh shows new activity and moves the focus to the update status', async () => {
    const { page } = session;
    await session.openPage('Dashboard');
    const cell = page
      .getByRole('table', { name: 'Activity by type' })
      .getByRole('row', { name: /^Item views/ })
      .getByRole('cell')
      .first();
    await expect.poll(() => cell.textContent(), PAGE_SHOWS).toBe('4');
    await ingest(tenant, [{ Counter: 'ItemView', ItemId: runner }]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => cell.textContent(), PAGE_SHOWS).toBe('5');
    await expectFocused(
      page.getByRole('status').filter({ hasText: /^Updated at / }),
      'the update status',
    );
    expect(session.pageErrors).toEqual([]);
  });
});
