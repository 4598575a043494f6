// The Items list and the item editor in a browser, at a laptop's size and a phone's: the list's
// thumbnails, brands, categories, statuses and prices in the price type's currency; a facet's
// count equal to what choosing it gives; the list's state in the address (Back, Forward, reload);
// the empty and no-result states; sorting; the editor's variant search and links, its guard for
// unsaved changes, prices refused with more decimals than the currency has, field errors next to
// their fields, and the focus after each action. One browser for the file; one tenant and one
// session per size.
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import {
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  type ItemJson,
} from '../catalog/catalog-fixtures.ts';
import { createMember, GOOD_PASSWORD } from '../members/members-fixtures.ts';
import { createAsset, png } from '../storage/storage-fixtures.ts';
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

const UNSAVED_QUESTION = 'This item has unsaved changes. Leave without saving them?';
const SOCKS = 52;

let api: TestApi;
let port: number;
let browser: Browser;

beforeAll(async () => {
  const started = await startListeningApi();
  api = started.api;
  port = started.port;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

interface Seeded {
  coat: number;
  rain: number;
  down: number;
  outerwear: number;
  northwind: number;
  coatImageUrl: string;
}

/**
 * Clothing > Outerwear > Jackets; a coat in Outerwear (with a sale price and an image), two
 * jackets in Jackets (one passive), and enough socks for a second page.
 */
async function seed(tenant: TestTenant): Promise<Seeded> {
  const euro = await createPriceType(api, tenant, { Description: 'Euro', PriceTypeSymbol: 'EUR' });
  const points = await createPriceType(api, tenant, {
    Description: 'Loyalty points',
    PriceTypeSymbol: 'pts',
  });
  const northwind = await createBrand(api, tenant, 'Northwind');
  const contoso = await createBrand(api, tenant, 'Contoso');
  const winter = await createTag(api, tenant, { Name: 'winter' });
  const clothing = await createCategory(api, tenant, { Name: 'Clothing' });
  const outerwear = await createCategory(api, tenant, {
    Name: 'Outerwear',
    ParentCategoryId: clothing.Id,
  });
  const jackets = await createCategory(api, tenant, {
    Name: 'Jackets',
    ParentCategoryId: outerwear.Id,
  });
  const coat = await createItem(api, tenant, {
    Title: 'Wool coat',
    SKU: 'COAT-1',
    CategoryId: outerwear.Id,
    BrandId: northwind.Id,
    Tags: [{ Id: winter.Id }],
    Prices: [
      { PriceTypeId: euro.Id, NormalPrice: 129.9, DiscountPrice: 99.9 },
      { PriceTypeId: points.Id, NormalPrice: 1300 },
    ],
  });
  const rain = await createItem(api, tenant, {
    Title: 'Rain jacket',
    CategoryId: jackets.Id,
    BrandId: northwind.Id,
    Prices: [{ PriceTypeId: euro.Id, NormalPrice: 89 }],
  });
  const down = await createItem(api, tenant, {
    Title: 'Down jacket',
    CategoryId: jackets.Id,
    BrandId: contoso.Id,
    ItemStatusId: 2,
    Tags: [{ Id: winter.Id }],
    Prices: [{ PriceTypeId: euro.Id, NormalPrice: 149.5 }],
  });
  for (let n = 1; n <= SOCKS; n++)
    await createItem(api, tenant, {
      Title: `Sock ${n}`,
      Prices: [{ PriceTypeId: euro.Id, NormalPrice: 5 + n }],
    });
  const image = await createAsset(api, tenant, png(4, 4), 'image/png', 'coat.png');
  const related = await api.call({
    method: 'POST',
    url: `/private/catalog/items/${coat.Id}/image?assetId=${image.Id}&isDefault=true`,
    tenant,
  });
  expect(related.statusCode, related.body).toBe(201);
  return {
    coat: coat.Id,
    rain: rain.Id,
    down: down.Id,
    outerwear: outerwear.Id,
    northwind: northwind.Id,
    coatImageUrl: image.AssetUrl,
  };
}

describe.each(VIEWPORT_NAMES)('the Items pages at %s size', { timeout: 120_000 }, (size) => {
  let tenant: TestTenant;
  let session: ConsoleSession;
  let page: Page;
  let seeded: Seeded;
  let locale: string;

  beforeAll(async () => {
    tenant = await api.createTenant(`shop-${size}`);
    await createMember(api, tenant, 'olivia', ['owner']);
    session = await openConsole(browser, `http://shop-${size}.localhost:${port}`, size);
    page = session.page;
    await session.signIn('olivia', GOOD_PASSWORD);
    locale = await page.evaluate<string>('navigator.language');
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshotOnFailure(page, `${size} ${test.task.name}`);
  });
  afterAll(async () => {
    expect(session?.pageErrors ?? []).toEqual([]);
    // Only the page: closing a context ends the bundled single-process Chromium.
    await session?.page.close();
  });

  /** An amount in euros as the browser's locale writes it (e.g. "€99.90" in en-US). */
  const euros = async (amount: number) => {
    const text = await page.evaluate<string>(
      `new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(${amount})`,
    );
    expect(text).toMatch(/€/);
    expect(text).toMatch(/\d[.,]\d\d\b/);
    return text;
  };
  const url = () => new URL(page.url());
  const heading = () => page.locator('#items-heading');
  const rows = () => page.locator('table.item-list tbody tr');
  const rowOf = (title: string) =>
    page.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  /** A facet's button; a category's is named by its path ("Clothing / Outerwear (3)"). */
  const facet = (name: string) =>
    page.getByRole('button', { name: new RegExp(`(^| / )${name} \\(\\d+\\)$`) });
  const titles = () => rows().locator('td.title a').allTextContents();
  /** The filters fold behind their disclosure on a phone. */
  const openFilters = async () => {
    const filters = page.locator('details.filters');
    await filters.waitFor();
    if ((await filters.getAttribute('open')) === null) await filters.locator('summary').click();
  };
  const showsList = (count: number) =>
    expect
      .poll(() => heading().textContent(), PAGE_SHOWS)
      .toBe(`${count} ${count === 1 ? 'item' : 'items'}`);
  /** Replaces the session's "accept every dialog" with one that records and dismisses. */
  const dismissDialogs = () => {
    const seen: { type: string; message: string }[] = [];
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog: Dialog) => {
      seen.push({ type: dialog.type(), message: dialog.message() });
      void dialog.dismiss();
    });
    return seen;
  };
  const acceptDialogs = () => {
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog: Dialog) => void dialog.accept());
  };
  const clickMenu = async (label: string) => {
    await openMenu(page);
    await page
      .getByRole('navigation', { name: 'Console pages' })
      .getByRole('link', { name: label, exact: true })
      .click();
  };
  const openEditor = async (title: string) => {
    await session.openPage('Items');
    await page.getByLabel('Search items').fill(title);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await rowOf(title).getByRole('link', { name: title, exact: true }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toMatch(new RegExp(`^Item \\d+: ${title}$`));
  };
  const apiItem = async (id: number) =>
    (await api.call({ url: `/private/catalog/item/${id}`, tenant })).json<ItemJson>();

  it('says there are no items yet and offers to create the first one', async () => {
    await session.openPage('Items');
    await expect.poll(() => heading().textContent(), PAGE_SHOWS).toBe('No items yet');
    expect(await page.locator('table').count()).toBe(0);
    await checkPage(session, 'Items, empty');
    await page.getByRole('button', { name: 'Create your first item' }).click();
    await expect.poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS).toBe('New item');
    await expectFocused(page.locator('h1').first(), 'the new item heading');
    expect(url().pathname).toBe('/console/items/new');
  });

  it('lists items with thumbnail, brand, category, status and prices in their currency', async () => {
    seeded = await seed(tenant);
    await clickMenu('Items');
    await showsList(SOCKS + 3);
    expect(await rows().count()).toBe(50);
    const coat = rowOf('Wool coat');
    expect(await coat.locator('img').getAttribute('src')).toBe(seeded.coatImageUrl);
    await expect
      .poll(() =>
        coat
          .locator('img')
          .evaluate(
            (img: { complete: boolean; naturalWidth: number }) =>
              img.complete && img.naturalWidth === 4,
          ),
      )
      .toBe(true);
    expect(await coat.locator('td.brand').textContent()).toContain('Northwind');
    expect(await coat.locator('td.category').textContent()).toContain('Outerwear');
    expect(await coat.locator('td.status').textContent()).toBe('Active');
    // The sale price, then the normal one struck through, each named for screen readers.
    const euro = coat.locator('td.price li').first();
    expect(await euro.locator('.sale').textContent()).toBe(`Sale price: ${await euros(99.9)}`);
    expect(await euro.locator('s').textContent()).toBe(`, normal price: ${await euros(129.9)}`);
    // The words are for screen readers only (a 1-pixel clipped box).
    expect(
      (await euro.locator('.visually-hidden').first().boundingBox())?.width,
    ).toBeLessThanOrEqual(1);
    // A symbol that is no currency code keeps 2 decimals, with the symbol where a sign goes.
    const points = await coat.locator('td.price li').nth(1).textContent();
    if (locale === 'en-US') expect(points).toBe('pts\u00a01,300.00');
    else expect(points).toContain('pts');
    const rain = rowOf('Rain jacket');
    expect(await rain.locator('td.price').textContent()).toBe(await euros(89));
    expect(await rain.locator('td.category').textContent()).toContain('Jackets');
    expect(await rowOf('Down jacket').locator('td.status').textContent()).toBe('Passive');
    expect(await rowOf('Sock 1').locator('td.brand').textContent()).toContain('None');
    await checkPage(session, 'Items');
  });

  it("shows a category's count as what choosing it gives (its subcategories included)", async () => {
    await openFilters();
    const outerwear = facet('Outerwear');
    expect(await outerwear.textContent()).toBe('Outerwear (3)');
    expect(await outerwear.getAttribute('aria-label')).toBe('Clothing / Outerwear (3)');
    // A tree in path order with every ancestor: Clothing has no item of its own, yet it is
    // listed with what choosing it gives, above its subcategories, each indented under it.
    const list = page.locator('fieldset.categories li button');
    expect(await list.allTextContents()).toEqual(['Clothing (3)', 'Outerwear (3)', 'Jackets (2)']);
    const indent = (name: string) =>
      facet(name).evaluate((b: { parentElement: { style: { paddingLeft: string } } }) =>
        parseFloat(b.parentElement.style.paddingLeft || '0'),
      );
    expect(await indent('Outerwear')).toBeGreaterThan(await indent('Clothing'));
    expect(await indent('Jackets')).toBeGreaterThan(await indent('Outerwear'));
    await outerwear.click();
    await showsList(3);
    expect((await titles()).sort()).toEqual(['Down jacket', 'Rain jacket', 'Wool coat']);
    expect(await outerwear.getAttribute('aria-pressed')).toBe('true');
    await expectFocused(outerwear, 'the chosen category');
    // Under Outerwear: itself and its subcategory, each with what choosing it gives.
    expect(await facet('Jackets').textContent()).toBe('Jackets (2)');
    await facet('Jackets').click();
    await showsList(2);
    expect(url().searchParams.get('category')).not.toBe(String(seeded.outerwear));
  });

  it('keeps the other brands while one is chosen, and removes a chosen filter with its ×', async () => {
    await session.openPage('Items');
    await showsList(SOCKS + 3);
    await openFilters();
    await facet('Northwind').click();
    await showsList(2);
    // Contoso is still offered, with what choosing it instead gives.
    expect(await facet('Contoso').textContent()).toBe('Contoso (1)');
    expect(await facet('Northwind').getAttribute('aria-pressed')).toBe('true');
    await facet('Jackets').click();
    await showsList(1);
    // The chosen filters, each a chip with a visible ×.
    const chips = page.getByRole('list', { name: 'Chosen filters' });
    expect(await chips.locator('li span').allTextContents()).toEqual([
      'Category: Jackets',
      'Brand: Northwind',
    ]);
    const remove = chips.getByRole('button', { name: 'Remove the filter Brand: Northwind' });
    expect(await remove.textContent()).toBe('×');
    expect(await remove.isVisible()).toBe(true);
    await checkPage(session, 'Items, chosen filters');
    await remove.click();
    await expect.poll(() => url().searchParams.get('brand'), PAGE_SHOWS).toBeNull();
    expect(url().searchParams.get('category')).not.toBeNull();
    await showsList(2);
    await chips.getByRole('button', { name: 'Remove the filter Category: Jackets' }).click();
    await showsList(SOCKS + 3);
    expect(await chips.count()).toBe(0);
  });

  it('shows a category by its whole path in the editor, and a price type once named', async () => {
    await api.call({
      method: 'POST',
      url: '/private/catalog/pricetype',
      tenant,
      body: { Description: 'Retail price (GBP)', PriceTypeSymbol: 'GBP' },
    });
    await openEditor('Rain jacket');
    const category = page.getByLabel('Category', { exact: true });
    const shown = await category.evaluate(
      (select: {
        selectedOptions: ArrayLike<{ textContent: string | null }>;
        clientWidth: number;
        ownerDocument: {
          createElement(tag: string): {
            textContent: string;
            style: Record<string, string>;
            getBoundingClientRect(): { width: number };
            remove(): void;
          };
          body: { append(node: unknown): void };
        };
      }) => {
        // The chosen path's text, measured in the select's own font, against the select.
        const probe = select.ownerDocument.createElement('span');
        probe.textContent = select.selectedOptions[0]!.textContent ?? '';
        probe.style.font = 'inherit';
        probe.style.whiteSpace = 'nowrap';
        probe.style.position = 'absolute';
        select.ownerDocument.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        return { path: select.selectedOptions[0]!.textContent, text, width: select.clientWidth };
      },
    );
    expect(shown.path).toBe('Clothing / Outerwear / Jackets');
    // Room for the whole path, and the arrow.
    expect(shown.width).toBeGreaterThan(shown.text + 20);
    await page.getByRole('button', { name: 'Add price' }).click();
    const labels = await page.getByLabel('Price type 2').locator('option').allTextContents();
    expect(labels).toContain('Retail price (GBP)');
    expect(labels).toContain('Euro (EUR)');
    await page.getByRole('button', { name: 'Remove price 2' }).click();
  });

  it('takes images before a new item is created, and saves image changes with the item', async () => {
    await session.openPage('Items');
    await page.getByRole('button', { name: 'New item' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Beanie');
    const images = page.getByRole('region', { name: 'Images' });
    // Images come before Save, inside the form.
    const save = page.getByRole('button', { name: 'Create item' });
    expect((await images.boundingBox())!.y).toBeLessThan((await save.boundingBox())!.y);
    await images.getByLabel('Choose images').setInputFiles({
      name: 'beanie.png',
      mimeType: 'image/png',
      buffer: png(4, 4),
    });
    await images.getByRole('img', { name: 'beanie.png' }).waitFor();
    await save.click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toMatch(/^Item \d+: Beanie$/);
    const id = Number(/items\/(\d+)$/.exec(page.url())?.[1]);
    const related = async () =>
      (await api.call({ url: `/private/catalog/items/${id}/image`, tenant })).json<
        { FileName: string; IsDefault: boolean }[]
      >();
    expect(await related()).toMatchObject([{ FileName: 'beanie.png', IsDefault: true }]);
    // Removing is part of the unsaved changes, until Save.
    await images.getByRole('button', { name: 'Remove beanie.png' }).click();
    expect(await related()).toHaveLength(1);
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await related()).toEqual([]);
    // The lists of the tests after this one count the seeded items.
    await api.call({ method: 'DELETE', url: `/private/catalog/item/${id}`, tenant });
  });

  it('keeps the search, filters and sort in the address: Back, Forward and reload restore them', async () => {
    await clickMenu('Items');
    await showsList(SOCKS + 3);
    await page.getByLabel('Search items').fill('jacket');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await showsList(2);
    expect(url().searchParams.get('q')).toBe('jacket');
    await openFilters();
    await facet('Northwind').click();
    await showsList(1);
    expect(url().searchParams.get('brand')).toBe(String(seeded.northwind));
    await page.getByLabel('Sort by').selectOption({ label: 'Title, Z to A' });
    await expect.poll(() => url().searchParams.get('sort'), PAGE_SHOWS).toBe('-title');

    await page.goBack();
    await expect.poll(() => page.getByLabel('Sort by').inputValue(), PAGE_SHOWS).toBe('');
    expect(url().searchParams.get('brand')).toBe(String(seeded.northwind));
    await page.goBack();
    await showsList(2);
    expect(url().searchParams.get('brand')).toBeNull();
    expect(await page.getByLabel('Search items').inputValue()).toBe('jacket');
    await page.goForward();
    await showsList(1);
    expect(await facet('Northwind').getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await showsList(1);
    expect(await page.getByLabel('Search items').inputValue()).toBe('jacket');
    await openFilters();
    expect(await facet('Northwind').getAttribute('aria-pressed')).toBe('true');
    expect(await titles()).toEqual(['Rain jacket']);
  });

  it('keeps the page in the address and gives the focus to the list after paging', async () => {
    await clickMenu('Items');
    await showsList(SOCKS + 3);
    await page
      .getByRole('navigation', { name: 'Items pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await expect.poll(() => url().searchParams.get('page'), PAGE_SHOWS).toBe('2');
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBe(SOCKS + 3 - 50);
    await expectFocused(heading(), 'the list heading after paging');
    await page.goBack();
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBe(50);
    await page.goForward();
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBe(SOCKS + 3 - 50);
    await page.reload();
    await expect.poll(() => rows().count(), PAGE_SHOWS).toBe(SOCKS + 3 - 50);
    expect(url().searchParams.get('page')).toBe('2');
  });

  it("sorts by the API's orderings", async () => {
    await clickMenu('Items');
    await page.getByLabel('Search items').fill('jacket');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await showsList(2);
    // (selectOption does not focus the select; a person choosing does.)
    await page.getByLabel('Sort by').focus();
    await page.getByLabel('Sort by').selectOption({ label: 'Title, A to Z' });
    await expect.poll(titles, PAGE_SHOWS).toEqual(['Down jacket', 'Rain jacket']);
    await page.getByLabel('Sort by').selectOption({ label: 'Title, Z to A' });
    await expect.poll(titles, PAGE_SHOWS).toEqual(['Rain jacket', 'Down jacket']);
    await page.getByLabel('Sort by').selectOption({ label: 'Price (EUR), lowest first' });
    await expect.poll(titles, PAGE_SHOWS).toEqual(['Rain jacket', 'Down jacket']);
    await page.getByLabel('Sort by').selectOption({ label: 'Price (EUR), highest first' });
    await expect.poll(titles, PAGE_SHOWS).toEqual(['Down jacket', 'Rain jacket']);
    expect(url().searchParams.get('sort')).toMatch(/^-price\.\d+$/);
    // The list changed under the select: the focus stayed on it.
    await expectFocused(page.getByLabel('Sort by'), 'the sort choice');
  });

  it('says when no item matches and clears the search and filters', async () => {
    await clickMenu('Items');
    await openFilters();
    await facet('Northwind').click();
    await showsList(2);
    await page.getByLabel('Search items').fill('zeppelin');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => heading().textContent(), PAGE_SHOWS).toBe('No items match');
    expect(await page.locator('.empty-state p').textContent()).toBe(
      'No items match “zeppelin” with the chosen brand.',
    );
    await checkPage(session, 'Items, no match');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await showsList(SOCKS + 3);
    expect(url().search).toBe('');
    expect(await page.getByLabel('Search items').inputValue()).toBe('');
    await expectFocused(page.getByLabel('Search items'), 'the search box');
  });

  it('chooses a default item by searching, links both ways, and focuses the status after Save', async () => {
    await openEditor('Rain jacket');
    // Amounts show with the currency's decimals.
    expect(await page.getByLabel('Normal price 1').inputValue()).toBe('89.00');
    const variants = page.getByRole('region', { name: 'Variants' });
    const combobox = variants.getByRole('combobox', { name: 'Default item' });
    await combobox.fill('wool');
    const option = variants.getByRole('option', { name: /^Wool coat/ });
    await option.waitFor();
    expect(await combobox.getAttribute('aria-expanded')).toBe('true');
    await combobox.press('ArrowDown');
    expect(await combobox.getAttribute('aria-activedescendant')).toBe(
      await option.getAttribute('id'),
    );
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await combobox.press('Enter');
    await variants.getByText('(not saved yet)').waitFor();
    expect(await combobox.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Save item' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Saved.' });
    await status.waitFor();
    await expectFocused(status, 'the "Saved." status');
    expect((await apiItem(seeded.rain)).DefaultItemId).toBe(seeded.coat);
    expect(await variants.getByText('(not saved yet)').count()).toBe(0);
    await checkPage(session, 'Item editor');

    // The variant links to its default item, which links to its variants.
    await variants.getByRole('link', { name: 'Wool coat', exact: true }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toBe(`Item ${seeded.coat}: Wool coat`);
    const group = page.getByRole('region', { name: 'Variants' });
    await group
      .getByText('This item is the default item of a variant group with 1 variant:')
      .waitFor();
    await group.getByRole('link', { name: 'Rain jacket', exact: true }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toBe(`Item ${seeded.rain}: Rain jacket`);

    // A variant cannot be a default item: it is offered, marked unavailable, with the reason.
    await openEditor('Down jacket');
    const picker = page.getByRole('region', { name: 'Variants' }).getByRole('combobox');
    await picker.fill('rain');
    const variant = page.getByRole('option', { name: /^Rain jacket/ });
    await variant.waitFor();
    expect(await variant.getAttribute('aria-disabled')).toBe('true');
    expect(await variant.textContent()).toContain(`a variant of item ${seeded.coat}`);
    // (Playwright waits for an aria-disabled element to be enabled before a click: dispatched.)
    await variant.dispatchEvent('click');
    expect(await page.getByText('(not saved yet)').count()).toBe(0);
    await picker.press('Escape');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
  });

  it('asks before leaving unsaved changes: a menu link, Back, and a reload', async () => {
    await openEditor('Down jacket');
    const editorPath = url().pathname;
    await page.getByLabel('Title', { exact: true }).fill('Down jacket, long');
    const seen = dismissDialogs();
    try {
      await clickMenu('Items');
      await expect.poll(() => seen.length, PAGE_SHOWS).toBe(1);
      expect(seen[0]).toEqual({ type: 'confirm', message: UNSAVED_QUESTION });
      expect(url().pathname).toBe(editorPath);
      expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(
        'Down jacket, long',
      );

      await page.goBack();
      await expect.poll(() => seen.length, PAGE_SHOWS).toBe(2);
      expect(seen[1]).toEqual({ type: 'confirm', message: UNSAVED_QUESTION });
      await expect.poll(() => url().pathname, PAGE_SHOWS).toBe(editorPath);
      expect(await page.locator('h1').first().textContent()).toMatch(/Down jacket$/);
      expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(
        'Down jacket, long',
      );

      // Closing or reloading the tab: the browser's own question (beforeunload).
      await page.evaluate('location.reload()');
      await expect.poll(() => seen.length, PAGE_SHOWS).toBe(3);
      expect(seen[2]!.type).toBe('beforeunload');
      expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(
        'Down jacket, long',
      );
    } finally {
      acceptDialogs();
    }
    // Confirmed, the console leaves; nothing was saved.
    await session.openPage('Items');
    expect((await apiItem(seeded.down)).Title).toBe('Down jacket');
  });

  it('refuses a price with more decimals than the currency has, next to its field', async () => {
    await session.openPage('Items');
    await page.getByRole('button', { name: 'New item' }).click();
    await expect.poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS).toBe('New item');
    await page.getByLabel('Title', { exact: true }).fill('Scarf');
    await page.getByRole('button', { name: 'Add price' }).click();
    const price = page.getByLabel('Normal price 1');
    await price.fill('12.345');
    await page.getByRole('button', { name: 'Create item' }).click();
    const error = 'Price can have at most 2 decimals, like 129.90.';
    await expect.poll(() => price.getAttribute('aria-invalid'), PAGE_SHOWS).toBe('true');
    const describedBy = (await price.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(error);
    await expectFocused(price, 'the price in error');
    expect(await page.getByRole('alert').textContent()).toBe(error);
    const found = await api.call({ url: '/private/catalog/items/search?q=scarf', tenant });
    expect(found.json<{ TotalCount: number }>().TotalCount).toBe(0);

    // The API's own field errors sit next to their fields too, in plain words.
    await price.fill('12.35');
    expect(await price.getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('Title', { exact: true }).fill('S'.repeat(257));
    await page.getByRole('button', { name: 'Create item' }).click();
    const title = page.getByLabel('Title', { exact: true });
    await expect.poll(() => title.getAttribute('aria-invalid'), PAGE_SHOWS).toBe('true');
    expect(
      await page.locator(`[id="${(await title.getAttribute('aria-describedby'))!}"]`).textContent(),
    ).toBe('Title can be at most 256 characters long.');
    await expectFocused(title, 'the title in error');

    await title.fill('Scarf');
    await page.getByRole('button', { name: 'Create item' }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toMatch(/^Item \d+: Scarf$/);
    await expectFocused(page.locator('h1').first(), 'the new item heading');
    const id = Number(/items\/(\d+)$/.exec(page.url())?.[1]);
    expect((await apiItem(id)).Prices).toMatchObject([{ NormalPrice: 12.35 }]);
  });
});
