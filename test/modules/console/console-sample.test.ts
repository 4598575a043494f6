// A newcomer's first look at the console, on a tenant holding the sample catalog, at laptop and
// phone sizes: the dashboard shows the sample's activity and trending items, the item list and
// an item's editor show its drawn image, and the category tree is three levels deep.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import { screenshotOnFailure, startListeningApi } from './console-browser-fixtures.ts';
import {
  checkPage,
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
let tenant: TestTenant;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'omni-console-sample-'));
  ({ api, port } = await startListeningApi({ DATA_DIR: dataDir }));
  browser = await launchBrowser();
  tenant = await api.createTenant('garden');
  const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
  await api.services.sample.seeder.seed(tenantId, `http://${tenant.host}:${port}`, 60);
  await createMember(api, tenant, 'anna', ['owner']);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Whether an image has loaded and drawn (an SVG served by the API, read by the browser). */
const drawn = (image: Locator) =>
  image.evaluate((element) => {
    const img = element as unknown as { complete: boolean; naturalWidth: number };
    return img.complete && img.naturalWidth > 0;
  });

describe.each(VIEWPORT_NAMES)(
  'the console on the sample catalog (%s)',
  { timeout: 90_000 },
  (viewport) => {
    let session: ConsoleSession;

    beforeAll(async () => {
      session = await openConsole(browser, `http://${tenant.host}:${port}`, viewport);
      await session.signIn('anna', GOOD_PASSWORD);
    });
    afterAll(() => session?.close());
    afterEach(async (test) => {
      if (test.task.result?.state === 'fail')
        await screenshotOnFailure(session?.page, `sample ${viewport} ${test.task.name}`);
    });

    it("opens on a dashboard of the sample's shopper activity and trending items", async () => {
      const { page } = session;
      const activity = page.getByRole('table', { name: 'Activity by type' });
      await activity.waitFor(PAGE_SHOWS);
      const views = activity
        .getByRole('row', { name: /^Item views/ })
        .getByRole('cell')
        .last();
      expect(Number(await views.textContent())).toBeGreaterThan(0);
      const trending = page.getByRole('table', { name: /^Trending on / });
      await trending.waitFor(PAGE_SHOWS);
      expect(await trending.locator('tbody tr').count()).toBe(10);
      await page.getByRole('img', { name: /^Shopper activity per day: / }).waitFor();
      await checkPage(session, 'sample dashboard');
    });

    it('lists the items with their images, and shows an item with its image', async () => {
      const { page } = session;
      await session.openPage('Items');
      const first = page.locator('tr[data-item]').first();
      await first.waitFor(PAGE_SHOWS);
      const thumbnail = first.locator('td.image img');
      await expect.poll(() => drawn(thumbnail), PAGE_SHOWS).toBe(true);
      const title = (await first.locator('td.title a').textContent())!;
      await first.locator('td.title a').click();
      await expect
        .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
        .toMatch(new RegExp(`^Item \\d+: ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      const image = page.getByRole('img', { name: /^sample-.*\.svg$/ });
      await image.waitFor(PAGE_SHOWS);
      await expect.poll(() => drawn(image), PAGE_SHOWS).toBe(true);
      await checkPage(session, 'sample item');
    });

    it('shows the category tree, three levels deep', async () => {
      const { page } = session;
      await session.openPage('Categories');
      for (const name of ['Garden', 'Plants', 'Houseplants', 'Outdoor living', 'Bird feeders'])
        await page.locator(`[data-category="${name}"]`).first().waitFor(PAGE_SHOWS);
      // Each level is a list inside its parent's item.
      const leaf = page.locator(
        'li:has(> [data-category="Garden"]) li:has(> [data-category="Plants"]) [data-category="Houseplants"]',
      );
      expect(await leaf.count()).toBe(1);
      await checkPage(session, 'sample categories');
      expect(session.pageErrors).toEqual([]);
    });
  },
);
