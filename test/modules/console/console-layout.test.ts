// The console's frame at a laptop's size and a phone's: every page of the menu (and the item
// editor) shown with data, each passing axe, not scrolling sideways on the phone, with its
// heading focused after the navigation and a screenshot in test-results/console/pages/<size>/;
// the collapsed "Menu" by keyboard on the phone; tables turned into cards on the phone; charts
// drawn at the width they are shown at. One browser for the file, one session per size.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import {
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
} from '../catalog/catalog-fixtures.ts';
import { createMember, GOOD_PASSWORD } from '../members/members-fixtures.ts';
import { screenshotOnFailure, startListeningApi } from './console-browser-fixtures.ts';
import {
  checkPage,
  expectFocused,
  openConsole,
  PAGE_SHOWS,
  VIEWPORT_NAMES,
  type ConsoleSession,
} from './console-session-fixtures.ts';

/** What the tests read of the browser's window (they are compiled without the DOM's types). */
interface Window {
  getComputedStyle(element: unknown, pseudo: string): { content: string };
}

let api: TestApi;
let acme: TestTenant;
let base: string;
let browser: Browser;

async function apiPost(url: string, body: unknown): Promise<{ Id: number }> {
  const response = await api.call({ method: 'POST', url, tenant: acme, body });
  expect([200, 201, 202], `${url}: ${response.body}`).toContain(response.statusCode);
  return response.json<{ Id: number }>();
}

/** A little of everything, so that no page is empty: the lists, the tree, the map, the charts. */
async function seed() {
  const euro = await createPriceType(api, acme, { Description: 'Euro', PriceTypeSymbol: 'EUR' });
  const brand = await createBrand(api, acme, 'Acme Shoes');
  await createTag(api, acme, { Name: 'summer', Description: 'Summer collection' });
  await apiPost('/private/catalog/dynamicattributetypes', { Description: 'Colour' });
  const footwear = await createCategory(api, acme, { Name: 'Footwear' });
  const shoes = await createCategory(api, acme, { Name: 'Shoes', ParentCategoryId: footwear.Id });
  await createCategory(api, acme, { Name: 'Running shoes', ParentCategoryId: shoes.Id });
  await createCategory(api, acme, { Name: 'Accessories' });
  for (const [title, normal, discount] of [
    ['Trail runner with a rather long title for a phone', 89.9, 79.5],
    ['Road runner', 120, null],
    ['Walking boot', 149.95, 129],
  ] as const) {
    await createItem(api, acme, {
      Title: title,
      SKU: title.slice(0, 4).toUpperCase(),
      BrandId: brand.Id,
      CategoryId: shoes.Id,
      Prices: [{ PriceTypeId: euro.Id, NormalPrice: normal, DiscountPrice: discount }],
    });
  }
  const store = await apiPost('/management/company/store', {
    Name: 'Amsterdam Centraal',
    Address: 'Stationsplein 1, 1012 AB Amsterdam',
    Location: { Latitude: 52.3791, Longitude: 4.9003 },
  });
  await apiPost('/management/company/store', {
    Name: 'Utrecht Hoog Catharijne',
    Location: { Latitude: 52.0894, Longitude: 5.1101 },
  });
  await apiPost('/management/company/physicaldevices', {
    DeviceId: 'kiosk-7',
    Description: 'Kiosk by the entrance',
    StoreId: store.Id,
  });
  await apiPost('/management/oauth/apps', { Name: 'Kiosk app', ApplicationTypeId: 2 });
  await createMember(api, acme, 'olivia', ['owner']);
  await createMember(api, acme, 'ana', ['analyst']);
  await apiPost('/analytics/logs', [
    { Counter: 'ItemView', ItemId: 1, ItemTitle: 'Road runner' },
    { Counter: 'ItemView', ItemId: 1, ItemTitle: 'Road runner' },
    { Counter: 'ItemView', ItemId: 2, ItemTitle: 'Walking boot' },
    // The dashboard draws the shares' bar chart only when there are shares.
    {
      Counter: 'OmniShareFromInStoreDeviceToCustomerDevice',
      OmniTicket: '00000000-0000-4000-8000-000000000001',
    },
  ]);
}

/** Each page of the menu, and what shows that its data is there. */
const MENU: { label: string; ready: (page: Page) => Locator }[] = [
  { label: 'Dashboard', ready: (page) => page.getByRole('table', { name: 'Activity by type' }) },
  { label: 'Items', ready: (page) => page.getByRole('link', { name: 'Road runner' }) },
  { label: 'Categories', ready: (page) => page.locator('[data-category="Running shoes"]') },
  { label: 'Brands', ready: (page) => page.getByRole('cell', { name: 'Acme Shoes' }) },
  { label: 'Tags', ready: (page) => page.getByRole('cell', { name: 'summer', exact: true }) },
  { label: 'Attribute types', ready: (page) => page.getByRole('cell', { name: 'Colour' }) },
  { label: 'Price types', ready: (page) => page.getByRole('cell', { name: 'EUR' }) },
  {
    label: 'Catalog import',
    ready: (page) => page.getByText('No file has been imported yet.'),
  },
  {
    label: 'Catalog export',
    ready: (page) => page.getByText('The catalog has not been exported yet.'),
  },
  {
    label: 'Stores and devices',
    // The store's marker on the map (alone, or a cluster naming it first).
    ready: (page) =>
      page.getByRole('application', { name: 'Map of the stores' }).getByRole('button', {
        name: /^(Amsterdam Centraal: 1 device|\d+ stores: Amsterdam Centraal)/,
      }),
  },
  { label: 'Apps', ready: (page) => page.getByRole('cell', { name: /^Kiosk app/ }) },
  {
    label: 'Integration endpoint',
    ready: (page) => page.getByRole('button', { name: 'Create endpoint' }),
  },
  { label: 'Members', ready: (page) => page.getByRole('cell', { name: 'ana', exact: true }) },
  {
    label: 'Activity',
    ready: (page) => page.getByRole('list', { name: 'Changes, newest first' }).locator('> li'),
  },
];

const heading = (page: Page) => page.locator('#content h1');
const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true });
const menuLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Console pages' }).getByRole('link');

beforeAll(async () => {
  const started = await startListeningApi();
  api = started.api;
  acme = await api.createTenant('acme');
  base = `http://acme.localhost:${started.port}`;
  await seed();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe.each(VIEWPORT_NAMES)('the console at %s size', { timeout: 60_000 }, (viewport) => {
  let session: ConsoleSession;
  let page: Page;

  beforeAll(async () => {
    session = await openConsole(browser, base, viewport);
    page = session.page;
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail') await screenshotOnFailure(page, test.task.name);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('signs in as an owner and shows the dashboard', async () => {
    await session.signIn('olivia', GOOD_PASSWORD);
    await expect.poll(() => heading(page).textContent(), PAGE_SHOWS).toBe('Dashboard');
  });

  it('writes the brand in the header whole, never cut ("Back offi…")', async () => {
    const brand = page.locator('header .brand');
    expect((await brand.innerText()).trim()).toBe(
      viewport === 'phone' ? 'Back office' : 'Back office console',
    );
    expect(
      await brand.evaluate(
        (e: { scrollWidth: number; clientWidth: number }) => e.scrollWidth <= e.clientWidth,
      ),
    ).toBe(true);
  });

  it(
    viewport === 'phone'
      ? 'folds the navigation behind a Menu button'
      : 'shows the navigation beside the page, with no Menu button',
    async () => {
      const nav = page.getByRole('navigation', { name: 'Console pages', includeHidden: true });
      if (viewport === 'desktop') {
        expect(await menuButton(page).isVisible()).toBe(false);
        expect(await nav.isVisible()).toBe(true);
        expect(await menuLinks(page).count()).toBe(MENU.length);
        return;
      }
      const toggle = menuButton(page);
      expect(await toggle.isVisible()).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.getAttribute('aria-controls')).toBe(await nav.getAttribute('id'));
      expect(await nav.isVisible()).toBe(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await menuLinks(page).count()).toBe(MENU.length);
      expect(await menuLinks(page).first().isVisible()).toBe(true);
      await checkPage(session, 'Menu open');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await nav.isVisible()).toBe(false);
    },
  );

  for (const { label, ready } of MENU) {
    it(`shows ${label} through the menu, its heading focused`, async () => {
      await session.openPage(label);
      await expectFocused(heading(page), `the heading of ${label}`);
      if (viewport === 'phone') {
        // Choosing a page folds the menu again.
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
      }
      await ready(page).first().waitFor();
      await checkPage(session, label);
    });
  }

  it('shows the item editor (items/new), its heading focused', async () => {
    await session.openPage('Items');
    await page.getByRole('button', { name: 'New item' }).click();
    await expect.poll(() => heading(page).textContent(), PAGE_SHOWS).toBe('New item');
    await expectFocused(heading(page), 'the heading of the item editor');
    await page.getByLabel('Title', { exact: true }).waitFor();
    await checkPage(session, 'Item editor');
  });

  it(
    viewport === 'phone'
      ? 'opens the menu by keyboard: Enter opens, Tab reaches the links, Escape closes'
      : 'reaches the navigation by keyboard right after the header',
    async () => {
      const links = menuLinks(page);
      if (viewport === 'desktop') {
        await page.getByRole('button', { name: 'Sign out' }).focus();
        await page.keyboard.press('Tab');
        await expectFocused(links.first(), 'the first link of the navigation');
        return;
      }
      const toggle = menuButton(page);
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => toggle.getAttribute('aria-expanded'), PAGE_SHOWS).toBe('true');
      // The links follow the button in the Tab order, one after the other.
      for (const { label } of MENU) {
        await page.keyboard.press('Tab');
        await expectFocused(links.getByText(label, { exact: true }), `the link ${label}`);
      }
      // Escape folds the menu and gives the focus back to its button.
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await links.first().isVisible()).toBe(false);
      await expectFocused(toggle, 'the Menu button');

      // Choosing a page by keyboard: the menu folds, the new page's heading has the focus.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expectFocused(links.getByText('Items', { exact: true }), 'the link Items');
      await page.keyboard.press('Enter');
      await expect.poll(() => heading(page).textContent(), PAGE_SHOWS).toBe('Items');
      await expectFocused(heading(page), 'the heading of Items');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // The page already shown, chosen again: its heading takes the focus all the same.
      await toggle.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expectFocused(heading(page), 'the heading of Items, chosen again');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    },
  );

  it(
    viewport === 'phone'
      ? 'shows tables as cards, each value after its column header'
      : 'shows tables as tables',
    async () => {
      await session.openPage('Stores and devices');
      // The cell keeps its role and its name (the value alone, not the label shown before it):
      // the table is still a table to assistive technology, which reads the column's header.
      const cell = page.getByRole('cell', { name: 'kiosk-7', exact: true });
      await cell.waitFor();
      const label = await cell.evaluate(
        (element: unknown) =>
          (globalThis as unknown as Window).getComputedStyle(element, '::before').content,
      );
      const headerShown = await page
        .getByRole('columnheader', { name: 'Device id' })
        .evaluate(
          (element: { getClientRects(): { length: number } }) => element.getClientRects().length,
        );
      if (viewport === 'phone') {
        expect(label).toMatch(/^"Device id"/);
      } else {
        expect(label).toBe('none');
        expect(headerShown).toBeGreaterThan(0);
      }
    },
  );

  it('draws the charts at the width they are shown at, with their text alternative', async () => {
    await session.openPage('Dashboard');
    const chart = page.getByRole('img', {
      name: /^Shopper activity per day: Item views 3, /,
    });
    await chart.waitFor();
    const bars = page.getByRole('img', { name: /^Items shared between devices, by direction: / });
    await bars.waitFor();
    for (const svg of [chart, bars]) {
      const { viewBoxWidth, shownWidth } = await svg.evaluate(
        (element: {
          getAttribute(name: string): string | null;
          getBoundingClientRect(): { width: number };
        }) => ({
          viewBoxWidth: Number(element.getAttribute('viewBox')?.split(' ')[2]),
          shownWidth: element.getBoundingClientRect().width,
        }),
      );
      // One unit of the drawing is one pixel on screen, so the labels keep their size.
      expect(Math.abs(viewBoxWidth - shownWidth)).toBeLessThanOrEqual(2);
      if (viewport === 'phone') expect(shownWidth).toBeLessThan(390);
    }
  });

  it('raised no JavaScript error on any page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
