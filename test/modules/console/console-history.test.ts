// The change history in the console, at a laptop's size and a phone's: an item's History tab
// lists its price changes newest first in words (the price type's name, old → new), each with
// who made it (an app, a member through the console) and when; Restore asks, saves the old
// version as a new change and shows it first; a change made meanwhile is refused in words. The
// Activity page lists the tenant's changes and narrows them by resource type and by actor, its
// entries linking to their resources' pages. A member whose roles do not grant history:read sees
// neither the tab nor the page. One browser for the file; one tenant and one session per size.
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import { expectStatus } from '../../support/expectations.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import {
  createBrand,
  createItem,
  createPriceType,
  getItem,
  type ItemJson,
} from '../catalog/catalog-fixtures.ts';
import { createMember, GOOD_PASSWORD, signIn } from '../members/members-fixtures.ts';
import { screenshotOnFailure, startListeningApi } from './console-browser-fixtures.ts';
import {
  checkPage,
  expectFocused,
  openConsole,
  openMenu,
  PAGE_SHOWS,
  VIEWPORT_NAMES,
  type ConsoleSession,
} from './console-session-fixtures.ts';

let api: TestApi;
let port: number;
let browser: Browser;

beforeAll(async () => {
  ({ api, port } = await startListeningApi());
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Sends the item back with its Retail price changed, as `token`'s caller. */
async function setRetailPrice(
  tenant: TestTenant,
  id: number,
  priceTypeId: number,
  price: number,
  token?: string,
): Promise<void> {
  const item = await getItem(api, tenant, id);
  const response = await api.call({
    method: 'PUT',
    url: `/private/catalog/item/${id}`,
    tenant,
    ...(token ? { token } : {}),
    body: {
      ...item,
      Prices: item.Prices.map((p) =>
        p.PriceTypeId === priceTypeId ? { PriceTypeId: p.PriceTypeId, NormalPrice: price } : p,
      ),
    },
  });
  expectStatus(response, 200);
}

const retail = (item: ItemJson, priceTypeId: number) =>
  item.Prices.find((p) => p.PriceTypeId === priceTypeId)?.NormalPrice;

describe.each(VIEWPORT_NAMES)('the change history at %s size', { timeout: 120_000 }, (size) => {
  let tenant: TestTenant;
  let session: ConsoleSession;
  let page: Page;
  let coat: number;
  let retailId: number;
  let brandId: number;

  beforeAll(async () => {
    tenant = await api.createTenant(`history-${size}`);
    await createMember(api, tenant, 'olivia', ['owner']);
    await createMember(api, tenant, 'marco', ['catalog-editor']);
    const priceType = await createPriceType(api, tenant, {
      Description: 'Retail',
      PriceTypeSymbol: 'EUR',
    });
    retailId = priceType.Id;
    const brand = await createBrand(api, tenant, 'Northwind');
    brandId = brand.Id;
    coat = (
      await createItem(api, tenant, {
        Title: 'Wool coat',
        BrandId: brand.Id,
        Prices: [{ PriceTypeId: retailId, NormalPrice: 19.99 }],
      })
    ).Id;
    // The first change by an app of the tenant's, the second by a member (signed in as the
    // console signs in); the third is made in the browser.
    const created = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant,
      body: { Name: 'Pricing bot', ApplicationTypeId: 2 },
    });
    expectStatus(created, 201);
    const bot = created.json<{ ApplicationId: string; ApplicationSecret: string }>();
    const botToken = await api.issueToken(tenant, bot.ApplicationId, bot.ApplicationSecret);
    await setRetailPrice(tenant, coat, retailId, 18.99, botToken);
    const marco = await signIn(api, tenant, 'marco');
    await setRetailPrice(tenant, coat, retailId, 17.99, marco.access_token);
    const renamed = await api.call({
      method: 'PUT',
      url: `/private/catalog/brand/${brand.Id}`,
      tenant,
      token: marco.access_token,
      body: { Name: 'Northwind Traders' },
    });
    expectStatus(renamed, 200);

    session = await openConsole(browser, `http://${tenant.host}:${port}`, size);
    page = session.page;
    page.setDefaultTimeout(20_000);
    await session.signIn('olivia', GOOD_PASSWORD);
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshotOnFailure(page, `${size} ${test.task.name}`);
  });
  afterAll(async () => {
    expect(session?.pageErrors ?? []).toEqual([]);
    await session?.page.close();
  });

  const heading = () => page.locator('#content h1');
  const entries = () => page.getByRole('list', { name: /^Changes of this item/ }).locator('> li');
  const entryTexts = async () =>
    (await entries().allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  const openItem = async () => {
    await session.openPage('Items');
    await page.getByRole('link', { name: 'Wool coat', exact: true }).click();
    await expect.poll(() => heading().textContent(), PAGE_SHOWS).toBe(`Item ${coat}: Wool coat`);
  };

  it('lists the item’s price changes newest first, each in words with who and when', async () => {
    await openItem();
    // The third change, in the editor.
    await page.getByLabel('Normal price 1').fill('16.99');
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page
      .getByRole('navigation', { name: `Item ${coat}` })
      .getByRole('link', { name: 'History' })
      .click();
    await expect.poll(() => entries().count(), PAGE_SHOWS).toBe(4);
    await expectFocused(heading(), 'the heading of the History tab');
    expect(await page.getByRole('link', { name: 'History' }).getAttribute('aria-current')).toBe(
      'page',
    );
    const texts = await entryTexts();
    expect(texts[0]).toMatch(/^Changed Price “Retail” 17\.99 → 16\.99 by olivia \(console\), /);
    expect(texts[1]).toMatch(/^Changed Price “Retail” 18\.99 → 17\.99 by marco \(console\), /);
    expect(texts[2]).toMatch(/^Changed Price “Retail” 19\.99 → 18\.99 by Pricing bot \(app\), /);
    expect(texts[3]).toMatch(/^Created “Wool coat” by .+ \(app\), /);
    // When: the hour and minute of today (with the day before it on another day).
    for (const time of await entries().locator('time').allTextContents())
      expect(time).toMatch(/\d\d:\d\d$/);
    // Restore on every entry but the latest.
    expect(
      await entries()
        .nth(0)
        .getByRole('button', { name: /^Restore/ })
        .count(),
    ).toBe(0);
    for (const n of [1, 2, 3])
      expect(
        await entries()
          .nth(n)
          .getByRole('button', { name: /^Restore/ })
          .count(),
      ).toBe(1);
    await checkPage(session, 'Item history');
  });

  it('restores a version after asking, and shows the restore as the newest entry', async () => {
    const asked: string[] = [];
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog: Dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Restore version 2' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Restored version 2.' });
    await status.waitFor();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Restore this item to version 2 /);
    await expect.poll(() => entries().count(), PAGE_SHOWS).toBe(5);
    expect((await entryTexts())[0]).toMatch(
      /^Restored version 2 Price “Retail” 16\.99 → 18\.99 by olivia \(console\), /,
    );
    await expectFocused(page.locator('.action-result'), 'the restore’s result');
    expect(retail(await getItem(api, tenant, coat), retailId)).toBe(18.99);
    // The Details tab shows the restored price.
    await page.getByRole('link', { name: 'Details' }).click();
    await expect
      .poll(() => page.getByLabel('Normal price 1').inputValue(), PAGE_SHOWS)
      .toBe('18.99');
  });

  it('refuses a restore when the item changed since the history was shown, in words', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    await expect.poll(() => entries().count(), PAGE_SHOWS).toBe(5);
    // Another change, made while the tab is shown.
    await setRetailPrice(tenant, coat, retailId, 15);
    await page.getByRole('button', { name: 'Restore version 3' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Someone changed this after the history was shown\./ })
      .waitFor();
    expect(retail(await getItem(api, tenant, coat), retailId)).toBe(15);
    // The list reloads: the change that came between is now first.
    await expect.poll(() => entries().count(), PAGE_SHOWS).toBe(6);
    expect((await entryTexts())[0]).toMatch(/^Changed Price “Retail” 18\.99 → 15 by /);
  });

  it('lists the tenant’s activity and narrows it by resource type and by actor', async () => {
    await session.openPage('Activity');
    const rows = () => page.getByRole('list', { name: 'Changes, newest first' }).locator('> li');
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBeGreaterThan(6);
    await checkPage(session, 'Activity');

    await page.getByLabel('Resource type').selectOption({ label: 'Brand' });
    await page.getByRole('button', { name: 'Show changes' }).click();
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBe(2);
    const brandRows = (await rows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(brandRows[0]).toMatch(
      new RegExp(`^Brand ${brandId}: Changed Name “Northwind” → “Northwind Traders” by marco`),
    );
    expect(brandRows[1]).toMatch(new RegExp(`^Brand ${brandId}: Created “Northwind” by `));
    expect(new URL(page.url()).search).toBe('?type=brand');

    // Choosing an actor narrows to their changes (of every kind: the filter on type is kept).
    await page.getByLabel('Resource type').selectOption({ label: 'Any' });
    await page.getByRole('button', { name: 'Show changes' }).click();
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBeGreaterThan(6);
    await rows()
      .getByRole('button', { name: 'marco (console): show only their changes' })
      .first()
      .click();
    await expect
      .poll(
        async () => (await rows().allInnerTexts()).every((t) => /\bby marco \(console\)/.test(t)),
        PAGE_SHOWS,
      )
      .toBe(true);
    const marcoRows = (await rows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(marcoRows).toContainEqual(
      expect.stringMatching(
        new RegExp(`^Brand ${brandId}: Changed Name “Northwind” → “Northwind Traders” by marco`),
      ),
    );
    expect(marcoRows).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Item ${coat}: Changed Price “Retail” 18\\.99 → 17\\.99 by marco \\(console\\)`,
        ),
      ),
    );
    expect(marcoRows.some((t) => t.includes('olivia') || t.includes('Pricing bot'))).toBe(false);
    expect(await page.getByLabel('Actor type').inputValue()).toBe('Member');
    expect(await page.getByLabel('Actor id').inputValue()).not.toBe('');

    // An entry links to its resource's page.
    await rows()
      .getByRole('link', { name: `Brand ${brandId}` })
      .first()
      .click();
    await expect
      .poll(() => heading().textContent(), PAGE_SHOWS)
      .toBe(`Brand ${brandId}: Northwind Traders`);
    await page.getByRole('link', { name: 'History' }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('list', { name: /^Changes of this brand/ })
            .locator('> li')
            .count(),
        PAGE_SHOWS,
      )
      .toBe(2);
    await checkPage(session, 'Brand history');
  });

  it('shows neither the History tab nor the Activity page to a member without the right', async () => {
    const other = await openConsole(browser, `http://${tenant.host}:${port}`, size);
    try {
      await other.signIn('marco', GOOD_PASSWORD);
      await other.openPage('Items');
      const nav = other.page.getByRole('navigation', { name: 'Console pages' });
      await openMenu(other.page);
      expect(await nav.getByRole('link', { name: 'Activity' }).count()).toBe(0);
      await other.page.getByRole('link', { name: 'Wool coat', exact: true }).click();
      await expect
        .poll(() => other.page.locator('#content h1').textContent(), PAGE_SHOWS)
        .toBe(`Item ${coat}: Wool coat`);
      await other.page.getByLabel('Normal price 1').waitFor();
      expect(await other.page.getByRole('link', { name: 'History' }).count()).toBe(0);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
