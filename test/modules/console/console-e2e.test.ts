// The console end to end in headless Chromium (test/support/browser.ts; never downloaded): sign
// in, one main task per page done through the UI and checked through the API, an axe-core check
// of every page, sign-out. One browser and one page for the whole file; screenshots of failed
// tests go to test-results/console/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import { errorBody, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  expectAccessible,
  droppedPng,
  screenshotOnFailure,
  startListeningApi,
} from './console-browser-fixtures.ts';
import { createMember, GOOD_PASSWORD, invitationLink } from '../members/members-fixtures.ts';

const ANALYST_PASSWORD = 'quiet-Meadow-river-57';

/**
 * For expect.poll on what the page shows after a render or a request: Vitest's own deadline (one
 * second) is shorter than a loaded machine may take; this one only bounds a failure.
 */
const PAGE_SHOWS = { timeout: 20_000 };

let api: TestApi;
let acme: TestTenant;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const started = await startListeningApi({ JOB_POLLING_INTERVAL_SECONDS: '1' });
  api = started.api;
  acme = await api.createTenant('acme');
  base = `http://acme.localhost:${started.port}`;
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // Confirmation dialogs (rotate, delete) are accepted.
  page.on('dialog', (dialog) => void dialog.accept());
});
afterEach(async (test) => {
  if (test.task.result?.state === 'fail') await screenshotOnFailure(page, test.task.name);
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Navigates with the console's own menu (a client-side route change, no reload). */
async function openPage(label: string) {
  await page
    .getByRole('navigation', { name: 'Console pages' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await expect.poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS).toContain(label);
}

async function apiGet<T>(url: string): Promise<T> {
  const response = await api.call({ url, tenant: acme });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

/** Opens the console signed out and signs in through the server's sign-in page. */
async function signIn(username: string, password: string) {
  await page.goto(`${base}/console/`);
  // The console sends the browser to /oauth/authorize (code flow with PKCE).
  await page.waitForURL((url) => url.pathname === '/oauth/authorize');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/console/');
}

/** The signed-in member's access token, as the console keeps it. */
const accessToken = () =>
  page.evaluate<string>("JSON.parse(sessionStorage.getItem('console.session')).accessToken");

describe('the console in a browser', { timeout: 60_000 }, () => {
  it('signs in through the sign-in page and shows the dashboard', async () => {
    await createMember(api, acme, 'olivia', ['owner']);
    await signIn('olivia', GOOD_PASSWORD);
    await expect.poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS).toBe('Dashboard');
    expect(await page.locator('header .who').textContent()).toBe('olivia');
    // No event has arrived yet: the dashboard says how they arrive.
    await page.getByText('No shopper activity in the last 30 days yet.').waitFor();
    await expectAccessible(page, 'the dashboard');
  });

  it('creates a price type on the Price types page', async () => {
    await openPage('Price types');
    await page.getByLabel('Description', { exact: true }).fill('Euro');
    await page.getByLabel('Symbol', { exact: true }).fill('EUR');
    await page.getByRole('button', { name: 'Create price type' }).click();
    await page.getByRole('cell', { name: 'EUR', exact: true }).waitFor();
    const types = await apiGet<{ Results: { Description: string; PriceTypeSymbol: string }[] }>(
      '/private/catalog/pricetypes',
    );
    expect(types.Results).toMatchObject([{ Description: 'Euro', PriceTypeSymbol: 'EUR' }]);
    await expectAccessible(page, 'the price types page');
  });

  it('creates a brand, a tag and an attribute type on their pages', async () => {
    await openPage('Brands');
    await page.getByLabel('Name', { exact: true }).fill('Acme Shoes');
    await page.getByRole('button', { name: 'Create brand' }).click();
    await page.getByRole('cell', { name: 'Acme Shoes', exact: true }).waitFor();
    await expectAccessible(page, 'the brands page');

    await openPage('Tags');
    await page.getByLabel('Name', { exact: true }).fill('summer');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('cell', { name: 'summer', exact: true }).waitFor();
    await expectAccessible(page, 'the tags page');

    await openPage('Attribute types');
    await page.getByLabel('Description', { exact: true }).fill('Colour');
    await page.getByRole('button', { name: 'Create attribute type' }).click();
    await page.getByRole('cell', { name: 'Colour', exact: true }).waitFor();
    await expectAccessible(page, 'the attribute types page');

    // A duplicate is refused by the API, and its FriendlyDescription is what the page shows.
    await page.getByLabel('Description', { exact: true }).fill('Colour');
    await page.getByRole('button', { name: 'Create attribute type' }).click();
    const refused = await api.call({
      method: 'POST',
      url: '/private/catalog/dynamicattributetypes',
      tenant: acme,
      body: { Description: 'Colour' },
    });
    expect(refused.statusCode).toBe(409);
    await expect
      .poll(() => page.getByRole('alert').textContent(), PAGE_SHOWS)
      .toBe(errorBody(refused).FriendlyDescription);

    expect(
      (await apiGet<{ Results: { Name: string }[] }>('/private/catalog/brands')).Results,
    ).toMatchObject([{ Name: 'Acme Shoes' }]);
    expect(
      (await apiGet<{ Results: { Name: string }[] }>('/private/catalog/tags')).Results,
    ).toMatchObject([{ Name: 'summer' }]);
  });

  it('creates an item with a price and a dropped image', async () => {
    await openPage('Items');
    await page.getByRole('button', { name: 'New item' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Trail runner');
    await page.getByLabel('SKU', { exact: true }).fill('TR-1');
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Acme Shoes' });
    await page.getByRole('button', { name: 'Add price' }).click();
    await page.getByLabel('Normal price 1').fill('89.90');
    await page.getByLabel('Discount price 1').fill('79.50');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Attribute value 1').fill('Red');
    await page.getByRole('checkbox', { name: 'summer' }).check();
    // Drag and drop of a file onto the drop zone (the browser's own drop event), before the
    // item exists: the image is related to it when it is created.
    const files = await droppedPng(page, 'runner.png');
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: files });
    await page.getByRole('img', { name: 'runner.png' }).waitFor();
    await expectAccessible(page, 'the item editor');
    await page.getByRole('button', { name: 'Create item' }).click();
    await expect
      .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
      .toMatch(/^Item \d+: Trail runner$/);
    const id = Number(/items\/(\d+)$/.exec(page.url())?.[1]);
    await page.getByRole('img', { name: 'runner.png' }).waitFor();

    const item = await apiGet<{
      Title: string;
      SKU: string;
      BrandId: number;
      Prices: { NormalPrice: number; DiscountPrice: number; PriceTypeSymbol: string }[];
      DynamicAttributes: { TypeName: string; Value: string }[];
      Tags: { Name: string }[];
    }>(`/private/catalog/item/${id}`);
    expect(item).toMatchObject({ Title: 'Trail runner', SKU: 'TR-1' });
    expect(item.Prices).toMatchObject([
      { NormalPrice: 89.9, DiscountPrice: 79.5, PriceTypeSymbol: 'EUR' },
    ]);
    expect(item.DynamicAttributes).toMatchObject([{ TypeName: 'Colour', Value: 'Red' }]);
    expect(item.Tags).toMatchObject([{ Name: 'summer' }]);
    const images = await apiGet<{ FileName: string; IsDefault: boolean; MimeType: string }[]>(
      `/private/catalog/items/${id}/image`,
    );
    expect(images).toMatchObject([
      { FileName: 'runner.png', IsDefault: true, MimeType: 'image/png' },
    ]);
  });

  it('shows 50 items with their facets after one API round trip', async () => {
    for (let i = 1; i <= 60; i++) {
      const created = await api.call({
        method: 'POST',
        url: '/private/catalog/item',
        tenant: acme,
        body: { Title: `Sock ${i}` },
      });
      expect(created.statusCode).toBe(201);
    }
    const { TotalCount } = await apiGet<{ TotalCount: number }>('/private/catalog/items?take=1');
    expect(TotalCount).toBeGreaterThan(50);
    await openPage('Dashboard');
    const calls: string[] = [];
    const listen = (request: { url(): string; method(): string }) => {
      if (new URL(request.url()).pathname.startsWith('/private/catalog/')) {
        calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
      }
    };
    page.on('request', listen);
    await openPage('Items');
    await page.getByRole('table', { name: `${TotalCount} items` }).waitFor();
    page.off('request', listen);
    expect(await page.locator('tbody tr').count()).toBe(50);
    // One search, whatever the machine's speed (how fast the page is belongs to the bench), and
    // the category tree for the filter's paths, once (kept for later views).
    expect(calls.filter((c) => c !== 'GET /private/catalog/categories')).toEqual([
      'POST /private/catalog/items',
    ]);
    await page.getByRole('button', { name: /Acme Shoes/ }).waitFor();
    await expectAccessible(page, 'the items page');

    // The facet narrows the list (one more search).
    await page.getByRole('button', { name: /Acme Shoes/ }).click();
    await page.getByRole('table', { name: '1 item' }).waitFor();
    await page.getByRole('navigation', { name: 'Items pages' }).waitFor();
  });

  it('re-parents a category by drag and drop and shows the API refusing a cycle', async () => {
    const create = async (Name: string) =>
      (
        await api.call({
          method: 'POST',
          url: '/private/catalog/category',
          tenant: acme,
          body: { Name },
        })
      ).json<{ Id: number }>().Id;
    const footwear = await create('Footwear');
    const shoes = await create('Shoes');
    await openPage('Categories');
    await page.dragAndDrop('[data-category="Shoes"]', '[data-category="Footwear"]');
    await expect
      .poll(
        async () =>
          (await apiGet<{ ParentCategoryId: number | null }>(`/private/catalog/category/${shoes}`))
            .ParentCategoryId,
        PAGE_SHOWS,
      )
      .toBe(footwear);
    await page.locator('[data-category="Footwear"] + ul [data-category="Shoes"]').waitFor();
    // The parent select of a subcategory shows its parent (the tree's nodes do not name it); a
    // category's controls show once its name is chosen (the moved one's are open already).
    expect(await page.getByLabel('Parent of Shoes').inputValue()).toBe(String(footwear));
    await page.locator('[data-category="Footwear"] [data-node]').click();
    expect(await page.getByLabel('Parent of Footwear').inputValue()).toBe('');

    await page.dragAndDrop('[data-category="Footwear"]', '[data-category="Shoes"]');
    const cycle = await api.call({
      method: 'PATCH',
      url: `/private/catalog/category/${footwear}`,
      tenant: acme,
      body: { ParentCategoryId: shoes },
    });
    expect(cycle.statusCode).toBe(409);
    expect(errorBody(cycle).Code).toBe('CategoryCycle');
    // The API's own words name category ids; the console says it in the retailer's.
    await expect
      .poll(() => page.getByRole('alert').textContent(), PAGE_SHOWS)
      .toBe('A category cannot be moved under itself or under one of its own subcategories.');
    expect(
      (await apiGet<{ ParentCategoryId: number | null }>(`/private/catalog/category/${footwear}`))
        .ParentCategoryId,
    ).toBeNull();
    await expectAccessible(page, 'the categories page');
  });

  it('adds a store and a device in it, and shows the device on the map', async () => {
    await openPage('Stores and devices');
    await page.getByLabel('Store name').fill('Amsterdam Centraal');
    await page.getByLabel('Latitude').fill('52.3791');
    await page.getByLabel('Longitude').fill('4.9003');
    await page.getByRole('button', { name: 'Create store' }).click();
    await page.locator('[data-store="Amsterdam Centraal"]').waitFor();
    await page.getByLabel('Device id').fill('kiosk-7');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Amsterdam Centraal' });
    await page.getByRole('button', { name: 'Register device' }).click();
    // Its marker is a button on the map, inside the map's frame; activated, it shows the device.
    const point = page.getByRole('button', { name: 'Amsterdam Centraal: 1 device' });
    await point.waitFor();
    const [box, frame] = [
      (await point.boundingBox())!,
      (await page.getByRole('application', { name: 'Map of the stores' }).boundingBox())!,
    ];
    expect(box.x).toBeGreaterThanOrEqual(frame.x);
    expect(box.y).toBeGreaterThanOrEqual(frame.y);
    expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
    expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
    await point.click();
    await expect
      .poll(() => page.locator('.store-details').textContent(), PAGE_SHOWS)
      .toContain('kiosk-7');
    const devices = await apiGet<{ Results: { DeviceId: string; StoreName: string }[] }>(
      '/management/company/physicaldevices',
    );
    expect(devices.Results).toMatchObject([
      { DeviceId: 'kiosk-7', StoreName: 'Amsterdam Centraal' },
    ]);
    await expectAccessible(page, 'the stores page');
  });

  it("rotates an app's secret and shows the new one once", async () => {
    const app = (
      await api.call({
        method: 'POST',
        url: '/management/oauth/apps',
        tenant: acme,
        body: { Name: 'Kiosk app', ApplicationTypeId: 2 },
      })
    ).json<{ ApplicationId: string; ApplicationSecret: string }>();
    await openPage('Apps');
    await page.getByRole('button', { name: 'Rotate secret of Kiosk app' }).click();
    const shown = page.locator('[data-secret]');
    await shown.waitFor();
    const secret = (await shown.textContent())!;
    expect(secret).not.toBe(app.ApplicationSecret);
    await expect(api.issueToken(acme, app.ApplicationId, secret)).resolves.toBeTruthy();
    await expect(api.issueToken(acme, app.ApplicationId, app.ApplicationSecret)).rejects.toThrow(
      /401/,
    );
    await expectAccessible(page, 'the apps page');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await shown.count()).toBe(0);
  });

  it('creates the integration endpoint and follows its status until Live', async () => {
    await openPage('Integration endpoint');
    await page.getByLabel('Service name').fill('acme-console');
    await page.getByLabel('Admin e-mail').fill('ops@acme.example');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await expect
      .poll(() => page.locator('[data-status]').textContent(), { timeout: 20_000, interval: 250 })
      .toBe('Live');
    // Gone live while the page followed it: the key is shown, once.
    const key = await apiGet<{ SubscriptionKey: string }>(
      '/management/integration/endpoint/subscriptionkey',
    );
    await expect
      .poll(() => page.locator('[data-secret]').textContent(), PAGE_SHOWS)
      .toBe(key.SubscriptionKey);
    await expectAccessible(page, 'the integration endpoint page');
  });

  it('shows a newly ingested event on the dashboard', async () => {
    await openPage('Dashboard');
    const todayCell = () =>
      page
        .getByRole('row', { name: /^Item views/ })
        .getByRole('cell')
        .first()
        .textContent();
    await page.getByText('No shopper activity in the last 30 days yet.').waitFor();
    expect(await page.getByRole('row', { name: /^Item views/ }).count()).toBe(0);
    const ingested = await api.call({
      method: 'POST',
      url: '/analytics/logs',
      tenant: acme,
      body: [{ Counter: 'ItemView', ItemId: 1, ItemTitle: 'Trail runner' }],
    });
    expect(ingested.statusCode).toBe(202);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(todayCell, PAGE_SHOWS).toBe('1');
  });

  it('adds a member with the read-only analyst role on the Members page', async () => {
    await openPage('Members');
    // Invited by e-mail; the invitee chooses username and password through the e-mail's link.
    await page.getByLabel('E-mail address').fill('ana@acme.example');
    await page.getByLabel('Name (optional)').fill('Ana Lyst');
    await page.getByRole('checkbox', { name: /^Analyst/ }).check();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('row', { name: /ana@acme\.example/ }).waitFor();
    const link = await invitationLink(api, acme, 'ana@acme.example');
    const invitee = await context.newPage();
    await invitee.goto(link.toString());
    await invitee.getByLabel('Username').fill('ana');
    await invitee.getByLabel('Password', { exact: true }).fill(ANALYST_PASSWORD);
    await invitee.getByLabel('Password again').fill(ANALYST_PASSWORD);
    await invitee.getByRole('button', { name: 'Create my account' }).click();
    await invitee.getByText('Your account ana is ready.').waitFor();
    await invitee.close();
    await openPage('Apps');
    await openPage('Members');
    await page.getByRole('cell', { name: /^ana\b/ }).waitFor();
    const members = await apiGet<{ Results: { Username: string; Roles: { Id: string }[] }[] }>(
      '/management/security/members',
    );
    expect(members.Results.find((m) => m.Username === 'ana')?.Roles).toMatchObject([
      { Id: 'analyst' },
    ]);
    await expectAccessible(page, 'the members page');
  });

  it('signs out: the session ends at the API too and the page offers to sign in again', async () => {
    const token = await accessToken();
    const refresh = await page.evaluate<string>(
      "JSON.parse(sessionStorage.getItem('console.session')).refreshToken",
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You have signed out' }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("console.session")')).toBeNull();
    const refused = await api.call({ url: '/private/catalog/items', tenant: acme, token });
    expect(refused.statusCode).toBe(401);
    const renewed = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { host: acme.host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: 'console',
      }).toString(),
    });
    expect(renewed.statusCode).toBe(400);
    await expectAccessible(page, 'the signed-out page');
  });

  it('a read-only member cannot edit: the UI offers no edit and the API refuses', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/oauth/authorize');
    await page.getByLabel('Username').fill('ana');
    await page.getByLabel('Password', { exact: true }).fill(ANALYST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/console/');
    await page.getByRole('table', { name: 'Activity by type' }).waitFor();
    // Pages of areas the role cannot read are not offered.
    const menu = page.getByRole('navigation', { name: 'Console pages' });
    expect(await menu.getByRole('link', { name: 'Apps' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Members' }).count()).toBe(0);

    await openPage('Items');
    await page.getByRole('link', { name: 'Trail runner' }).waitFor();
    expect(await page.getByRole('button', { name: 'New item' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Trail runner' }).click();
    await page.getByText('Your role can read the catalog but not change it.').waitFor();
    expect(await page.getByLabel('Title', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save item' }).isDisabled()).toBe(true);
    expect(await page.locator('.dropzone').count()).toBe(0);

    await openPage('Stores and devices');
    await page.getByRole('button', { name: /^Amsterdam Centraal: / }).waitFor();
    expect(await page.getByRole('button', { name: 'Create store' }).count()).toBe(0);

    const token = await accessToken();
    const item = await api.call({
      url: '/private/catalog/items/search?q=trail',
      tenant: acme,
      token,
    });
    expect(item.statusCode).toBe(200);
    const itemId = item.json<{ Results: { Id: number }[] }>().Results[0]!.Id;
    const refused = await api.call({
      method: 'PATCH',
      url: `/private/catalog/item/${itemId}`,
      tenant: acme,
      token,
      body: { Title: 'Changed' },
    });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).FriendlyDescription).toMatch(/catalog:write/);
    await expectAccessible(page, 'the stores page, read-only');
    expect(pageErrors).toEqual([]);
  });
});
