// The Stores and devices page in a browser, at a laptop's and a phone's size: a store added by
// picking its position on the world map, edited and deleted; a physical device registered,
// edited and deleted (with a field error shown and cleared); markers reached and activated with
// the keyboard; a cluster split by activating it, and stores at one place listed; the zoom
// buttons, the wheel, dragging and the arrow keys; a store name the tenant has warned of next to
// the name and saved anyway once confirmed, on create and on rename; a latitude out of range. Each action's outcome is checked through the API
// and the focus after it is asserted. Which stores share a cluster depends on the map's width,
// so the map tests follow the markers that hold a store (data-stores) rather than assume them.
import type { Browser, Locator, Page } from 'playwright-core';
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

beforeAll(async () => {
  ({ api, port } = await startListeningApi());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

interface StoreJson {
  Id: number;
  Name: string;
  Address: string | null;
  Description: string | null;
  Location: { Latitude: number; Longitude: number };
}
interface DeviceJson {
  DeviceId: string;
  Description: string | null;
  StoreId: number | null;
  StoreName: string | null;
}

/** Stores seeded through the API: two far apart, two 1 km apart (a cluster), two at one place. */
const SEEDED = [
  { Name: 'Hamburg', Location: { Latitude: 53.5511, Longitude: 9.9937 } },
  { Name: 'Lisbon', Location: { Latitude: 38.7223, Longitude: -9.1393 } },
  { Name: 'Paris Louvre', Location: { Latitude: 48.8606, Longitude: 2.3376 } },
  { Name: 'Paris Hotel de Ville', Location: { Latitude: 48.8566, Longitude: 2.3522 } },
  { Name: 'Madrid Sol', Location: { Latitude: 40.4168, Longitude: -3.7038 } },
  { Name: 'Madrid Sol kiosk', Location: { Latitude: 40.4168, Longitude: -3.7038 } },
];

describe.each(VIEWPORT_NAMES)('the stores page at %s size', { timeout: 90_000 }, (size) => {
  let tenant: TestTenant;
  let session: ConsoleSession;
  let page: Page;
  const ids: Record<string, number> = {};

  async function apiGet<T>(url: string): Promise<T> {
    const response = await api.call({ url, tenant });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json<T>();
  }
  const storesNow = async () =>
    (await apiGet<{ Results: StoreJson[] }>('/management/company/stores?take=100')).Results;

  const map = () => page.getByRole('application', { name: 'Map of the stores' });
  const controls = () => page.getByRole('group', { name: 'Map controls' });
  const showAll = () => controls().getByRole('button', { name: 'Show all stores' }).click();
  /** The marker (a store or a cluster) that holds the store. */
  const holderOf = (id: number) => map().locator(`.marker[data-stores~="${id}"]`);
  const storeNotice = () => page.locator('.store-form .notice-area');
  const deviceNotice = () => page.locator('.device-form .notice-area');
  /** Where an element's centre is on the map (from the map's top left corner). */
  const centreOf = async (locator: Locator) => {
    const [box, frame] = [(await locator.boundingBox())!, (await map().boundingBox())!];
    return { x: box.x + box.width / 2 - frame.x, y: box.y + box.height / 2 - frame.y };
  };
  const zoomOf = async () => Number(await map().getAttribute('data-zoom'));
  /** Where the world is drawn: the offset of its layer. */
  const worldOffset = async () => {
    const transform = (await map().locator('svg g.world').getAttribute('transform'))!;
    const [x, y] = /translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(transform)!.slice(1).map(Number);
    return { x: x!, y: y! };
  };
  const isFocused = (locator: Locator) =>
    locator.evaluate(
      (e: { ownerDocument: { activeElement: unknown } }) => e === e.ownerDocument.activeElement,
    );

  /** Clicks (a tap on the phone) a point of the map. */
  async function pressMap(at: { x: number; y: number }) {
    await map().scrollIntoViewIfNeeded();
    const frame = (await map().boundingBox())!;
    if (size === 'phone') await page.touchscreen.tap(frame.x + at.x, frame.y + at.y);
    else await page.mouse.click(frame.x + at.x, frame.y + at.y);
  }

  /** A point of the map on the world's land layer, far from every marker (and from `avoid`). */
  async function emptySpot(avoid: { x: number; y: number }[] = []) {
    await map().scrollIntoViewIfNeeded();
    const frame = (await map().boundingBox())!;
    const world = await centreOf(map().locator('path.land'));
    const land = (await map().locator('path.land').boundingBox())!;
    const [top, bottom] = [world.y - land.height / 2, world.y + land.height / 2];
    const taken = [...avoid];
    for (const m of await map().locator('.marker').all()) taken.push(await centreOf(m));
    // The stores' names written beside their markers are part of the markers (a click there
    // shows the store).
    const names = await Promise.all(
      (await map().locator('.marker .name').all()).map(async (n) => (await n.boundingBox())!),
    );
    const onName = (at: { x: number; y: number }) =>
      names.some(
        (n) =>
          frame.x + at.x > n.x - 10 &&
          frame.x + at.x < n.x + n.width + 10 &&
          frame.y + at.y > n.y - 10 &&
          frame.y + at.y < n.y + n.height + 10,
      );
    for (let fy = 0.15; fy <= 0.86; fy += 0.05)
      for (let fx = 0.15; fx <= 0.86; fx += 0.05) {
        const at = { x: frame.width * fx, y: frame.height * fy };
        if (
          at.y > top + 5 &&
          at.y < bottom - 5 &&
          taken.every((t) => Math.hypot(t.x - at.x, t.y - at.y) > 60) &&
          !onName(at)
        )
          return at;
      }
    throw new Error('no empty spot on the map');
  }

  /** Tabs from the map until `target` has the focus (at most 20 presses). */
  async function tabTo(target: Locator, what: string) {
    await map().focus();
    for (let i = 0; i < 20 && !(await isFocused(target)); i++) await page.keyboard.press('Tab');
    await expectFocused(target, what);
  }

  /**
   * Activates, with the keyboard, the cluster holding the store until the store has a marker of
   * its own: each activation zooms in and gives the focus to the marker now holding the
   * cluster's first store.
   */
  async function splitUntilSingle(id: number) {
    for (let i = 0; i < 14; i++) {
      const holder = holderOf(id);
      const count = Number(await holder.getAttribute('data-count'));
      if (count === 1) return;
      expect(await holder.getAttribute('aria-label')).toMatch(
        new RegExp(`^${count} stores: .+\\. Zoom in$`),
      );
      const members = (await holder.getAttribute('data-stores'))!.split(' ').map(Number);
      const zoom = await zoomOf();
      await tabTo(holder, `the cluster of ${count} stores`);
      await page.keyboard.press('Enter');
      // Twice the zoom at least (as the map shows it, to two decimals).
      await expect.poll(zoomOf, PAGE_SHOWS).toBeGreaterThanOrEqual(zoom * 2 * 0.99);
      await expectFocused(
        holderOf(Math.min(...members)),
        "the marker of the cluster's first store",
      );
    }
    throw new Error(`store ${id} stays in a cluster`);
  }

  beforeAll(async () => {
    tenant = await api.createTenant(`stores-${size}`);
    for (const store of SEEDED) {
      const response = await api.call({
        method: 'POST',
        url: '/management/company/store',
        tenant,
        body: store,
      });
      expect(response.statusCode, response.body).toBe(201);
      ids[store.Name] = response.json<StoreJson>().Id;
    }
    await createMember(api, tenant, 'olivia', ['owner']);
    session = await openConsole(browser, `http://stores-${size}.localhost:${port}`, size);
    page = session.page;
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await screenshotOnFailure(page, `stores-${size}-${test.task.name}`);
  });
  // The context stays open until the browser closes: the bundled Chromium runs as one process,
  // and closing a context there can take the browser with it.

  it('shows the world under the stores, from the data shipped with the console', async () => {
    await session.signIn('olivia', GOOD_PASSWORD);
    await session.openPage('Stores and devices');
    await map().locator('path.land').waitFor({ state: 'attached' });
    expect((await map().locator('path.land').getAttribute('d'))!.length).toBeGreaterThan(10_000);
    expect((await map().locator('path.borders').getAttribute('d'))!.length).toBeGreaterThan(1_000);
    // Every store is in view, in markers at least 36 px apart.
    await expect
      .poll(async () => {
        const counts = await map()
          .locator('.marker')
          .evaluateAll((all) =>
            all.map((m) => Number((m as unknown as { dataset: { count: string } }).dataset.count)),
          );
        return counts.reduce((a, b) => a + b, 0);
      }, PAGE_SHOWS)
      .toBe(SEEDED.length);
    const centres = await Promise.all((await map().locator('.marker').all()).map(centreOf));
    for (const [i, a] of centres.entries())
      for (const b of centres.slice(i + 1))
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(35.5);
    // The two stores in Paris, 1 km apart, share one.
    expect(await holderOf(ids['Paris Louvre']!).getAttribute('data-stores')).toContain(
      String(ids['Paris Hotel de Ville']),
    );
    await checkPage(session, 'Stores and devices');
  });

  it('adds a store by picking its position on the map, edits it and deletes it', async () => {
    await page.getByLabel('Store name').fill('Berlin Mitte');
    await page.getByLabel('Address').fill('Rosenthaler Str. 1, 10119 Berlin');
    expect(await map().locator('.pin').count()).toBe(0);

    // A click on the map sets both fields and puts the pin where it was.
    const first = await emptySpot();
    await pressMap(first);
    await expect.poll(() => page.getByLabel('Latitude').inputValue(), PAGE_SHOWS).not.toBe('');
    const picked = {
      lat: Number(await page.getByLabel('Latitude').inputValue()),
      lon: Number(await page.getByLabel('Longitude').inputValue()),
    };
    expect(Math.abs(picked.lat)).toBeLessThanOrEqual(90);
    expect(Math.abs(picked.lon)).toBeLessThanOrEqual(180);
    const pin = await centreOf(map().locator('.pin'));
    expect(Math.abs(pin.x - first.x)).toBeLessThan(2);
    expect(Math.abs(pin.y - first.y)).toBeLessThan(2);

    // The fields stay editable by hand, and the pin follows them (south is lower).
    const south = picked.lat > -60;
    await page.getByLabel('Latitude').fill(String(south ? picked.lat - 10 : picked.lat + 10));
    await expect
      .poll(
        async () => ((await centreOf(map().locator('.pin'))).y - pin.y) * (south ? 1 : -1),
        PAGE_SHOWS,
      )
      .toBeGreaterThan(3);

    // A second click: the position of that point.
    const second = await emptySpot([first]);
    await pressMap(second);
    await expect
      .poll(async () => Math.abs((await centreOf(map().locator('.pin'))).x - second.x), PAGE_SHOWS)
      .toBeLessThan(2);
    const position = {
      lat: Number(await page.getByLabel('Latitude').inputValue()),
      lon: Number(await page.getByLabel('Longitude').inputValue()),
    };
    // Further east is more longitude; further north more latitude.
    if (second.x > first.x + 1) expect(position.lon).toBeGreaterThan(picked.lon);
    if (second.x < first.x - 1) expect(position.lon).toBeLessThan(picked.lon);
    if (second.y < first.y - 1) expect(position.lat).toBeGreaterThan(picked.lat);
    if (second.y > first.y + 1) expect(position.lat).toBeLessThan(picked.lat);

    await page.getByRole('button', { name: 'Create store' }).click();
    await expectFocused(storeNotice(), 'the status after creating a store');
    expect(await storeNotice().textContent()).toBe('Store “Berlin Mitte” created.');
    const created = (await storesNow()).find((s) => s.Name === 'Berlin Mitte')!;
    expect(created).toMatchObject({
      Address: 'Rosenthaler Str. 1, 10119 Berlin',
      Location: { Latitude: position.lat, Longitude: position.lon },
    });
    // The map fits every store again (it was not moved by hand): the new one is in view.
    await holderOf(created.Id).waitFor();
    const placed = await centreOf(holderOf(created.Id));
    const frameBox = (await map().boundingBox())!;
    expect(placed.x).toBeGreaterThanOrEqual(0);
    expect(placed.x).toBeLessThanOrEqual(frameBox.width);
    expect(placed.y).toBeGreaterThanOrEqual(0);
    expect(placed.y).toBeLessThanOrEqual(frameBox.height);
    if ((await holderOf(created.Id).getAttribute('data-count')) === '1')
      expect(await holderOf(created.Id).getAttribute('aria-label')).toBe('Berlin Mitte: 0 devices');
    expect(await page.getByLabel('Store name').inputValue()).toBe('');
    expect(await page.getByLabel('Latitude').inputValue()).toBe('');

    // Edit: its details from its row, then "Edit store".
    await page.getByRole('button', { name: 'Berlin Mitte', exact: true }).click();
    await expectFocused(
      page.getByRole('heading', { name: 'Berlin Mitte', exact: true }),
      'the store details',
    );
    await page.getByRole('button', { name: 'Edit store' }).click();
    await expectFocused(
      page.getByRole('heading', { name: 'Edit store “Berlin Mitte”' }),
      'the edit form heading',
    );
    expect(await page.getByLabel('Store name').inputValue()).toBe('Berlin Mitte');
    expect(await page.getByLabel('Latitude').inputValue()).toBe(String(position.lat));
    await page.getByLabel('Store name').fill('Berlin Mitte Flagship');
    await page.getByLabel('Store description').fill('Two floors');
    const moved = await emptySpot();
    await pressMap(moved);
    await expect
      .poll(async () => Math.abs((await centreOf(map().locator('.pin'))).x - moved.x), PAGE_SHOWS)
      .toBeLessThan(2);
    const newPosition = {
      lat: Number(await page.getByLabel('Latitude').inputValue()),
      lon: Number(await page.getByLabel('Longitude').inputValue()),
    };
    expect(newPosition).not.toEqual(position);
    await page.getByRole('button', { name: 'Save store' }).click();
    await expectFocused(storeNotice(), 'the status after saving a store');
    expect(await storeNotice().textContent()).toBe('Store “Berlin Mitte Flagship” saved.');
    expect(await apiGet<StoreJson>(`/management/company/store/${created.Id}`)).toMatchObject({
      Name: 'Berlin Mitte Flagship',
      Description: 'Two floors',
      Address: 'Rosenthaler Str. 1, 10119 Berlin',
      Location: { Latitude: newPosition.lat, Longitude: newPosition.lon },
    });
    await page.getByRole('heading', { name: 'New store' }).waitFor();

    // Delete from its row (the confirmation is accepted).
    await page.getByRole('button', { name: 'Delete Berlin Mitte Flagship' }).click();
    await expectFocused(storeNotice(), 'the status after deleting a store');
    expect(await storeNotice().textContent()).toBe('Store “Berlin Mitte Flagship” deleted.');
    expect((await storesNow()).map((s) => s.Name)).not.toContain('Berlin Mitte Flagship');
    await expect.poll(() => holderOf(created.Id).count(), PAGE_SHOWS).toBe(0);
    expect(session.pageErrors).toEqual([]);
  });

  it('registers, edits and deletes a device, with a field error shown and cleared', async () => {
    await page.getByLabel('Device id').fill('kiosk/1');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Hamburg' });
    await page.getByRole('button', { name: 'Register device' }).click();
    const error = page.locator('.field-error', {
      hasText: 'Device id cannot contain a slash (/).',
    });
    await error.waitFor();
    await expectFocused(page.getByLabel('Device id'), 'the device id refused');
    expect(await page.getByLabel('Device id').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Device id').fill('kiosk-1');
    await expect.poll(() => error.count(), PAGE_SHOWS).toBe(0);
    expect(await page.getByLabel('Device id').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByLabel('Device description').fill('Entrance screen');
    await page.getByRole('button', { name: 'Register device' }).click();
    await expectFocused(deviceNotice(), 'the status after registering a device');
    expect(await deviceNotice().textContent()).toBe('Device “kiosk-1” registered in “Hamburg”.');
    expect(await apiGet<DeviceJson>('/management/company/physicaldevices/kiosk-1')).toEqual({
      DeviceId: 'kiosk-1',
      Description: 'Entrance screen',
      StoreId: ids.Hamburg,
      StoreName: 'Hamburg',
    });

    await page.getByRole('button', { name: 'Edit device kiosk-1' }).click();
    await expectFocused(
      page.getByRole('heading', { name: 'Edit device “kiosk-1”' }),
      'the device form heading',
    );
    expect(await page.getByLabel('Device description').inputValue()).toBe('Entrance screen');
    await page.getByLabel('Device description').fill('Checkout screen');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Lisbon' });
    await page.getByRole('button', { name: 'Save device' }).click();
    await expectFocused(deviceNotice(), 'the status after saving a device');
    expect(await deviceNotice().textContent()).toBe('Device “kiosk-1” saved, in “Lisbon”.');
    expect(await apiGet<DeviceJson>('/management/company/physicaldevices/kiosk-1')).toMatchObject({
      Description: 'Checkout screen',
      StoreName: 'Lisbon',
    });
    // The map counts it in its store.
    await showAll();
    await splitUntilSingle(ids.Lisbon!);
    await expect
      .poll(() => holderOf(ids.Lisbon!).getAttribute('aria-label'), PAGE_SHOWS)
      .toBe('Lisbon: 1 device');
    expect(await holderOf(ids.Lisbon!).textContent()).toContain('1');

    await page.getByRole('button', { name: 'Delete device kiosk-1' }).click();
    await expectFocused(deviceNotice(), 'the status after deleting a device');
    expect(await deviceNotice().textContent()).toBe('Device “kiosk-1” deleted.');
    const gone = await api.call({ url: '/management/company/physicaldevices/kiosk-1', tenant });
    expect(gone.statusCode).toBe(404);
    await expect
      .poll(() => holderOf(ids.Lisbon!).getAttribute('aria-label'), PAGE_SHOWS)
      .toBe('Lisbon: 0 devices');
    expect(session.pageErrors).toEqual([]);
  });

  it('reaches a marker with the keyboard and activates it, and moves the map with keys', async () => {
    await showAll();
    await splitUntilSingle(ids.Hamburg!);
    const hamburg = holderOf(ids.Hamburg!);
    expect(await hamburg.getAttribute('aria-label')).toBe('Hamburg: 0 devices');
    await tabTo(hamburg, 'the Hamburg marker');
    await page.keyboard.press('Enter');
    await expectFocused(
      page.getByRole('heading', { name: 'Hamburg', exact: true }),
      'the details of the store',
    );
    expect(await page.locator('.store-details').textContent()).toContain('53.5511, 9.9937');

    // An arrow key on a marker moves the map, and the focus goes to the map (the marker may
    // leave the view).
    await hamburg.focus();
    const start = await worldOffset();
    await page.keyboard.press('ArrowRight');
    await expectFocused(map(), 'the map after a key on a marker');
    await expect
      .poll(async () => (await worldOffset()).x - start.x, PAGE_SHOWS)
      .toBeCloseTo(-80, 0);

    // Arrow keys on the focused map move it by 80 px; + zooms in, 0 shows every store.
    const before = await worldOffset();
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(async () => (await worldOffset()).x - before.x, PAGE_SHOWS)
      .toBeCloseTo(80, 0);
    await page.keyboard.press('0');
    const zoom = await zoomOf();
    await page.keyboard.press('+');
    await expect.poll(zoomOf, PAGE_SHOWS).toBeCloseTo(zoom * 2, 1);
    await page.keyboard.press('-');
    await expect.poll(zoomOf, PAGE_SHOWS).toBeCloseTo(zoom, 1);
    await expectFocused(map(), 'the map');
  });

  it('splits a cluster when it is activated, and lists stores at one place', async () => {
    const louvre = ids['Paris Louvre']!;
    const hotel = ids['Paris Hotel de Ville']!;
    await showAll();
    expect(Number(await holderOf(louvre).getAttribute('data-count'))).toBeGreaterThan(1);
    await splitUntilSingle(louvre);
    await holderOf(hotel).waitFor();
    expect(await holderOf(louvre).getAttribute('aria-label')).toBe('Paris Louvre: 0 devices');
    expect(await holderOf(hotel).getAttribute('aria-label')).toBe(
      'Paris Hotel de Ville: 0 devices',
    );
    const [a, b] = [await centreOf(holderOf(louvre)), await centreOf(holderOf(hotel))];
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(35.5);

    // Two stores at the same coordinates cannot be split: their cluster lists them.
    await showAll();
    const sol = ids['Madrid Sol']!;
    for (let i = 0; i < 14; i++) {
      const label = (await holderOf(sol).getAttribute('aria-label'))!;
      if (label.endsWith('List them')) break;
      const zoom = await zoomOf();
      await holderOf(sol).click();
      await expect.poll(zoomOf, PAGE_SHOWS).toBeGreaterThan(zoom);
    }
    expect(await holderOf(sol).getAttribute('aria-label')).toBe(
      '2 stores: Madrid Sol, Madrid Sol kiosk. List them',
    );
    await holderOf(sol).click();
    await expectFocused(
      page.getByRole('heading', { name: '2 stores at one place' }),
      'the list of the stores at one place',
    );
    await page.getByRole('button', { name: 'Madrid Sol kiosk: 0 devices' }).click();
    await expectFocused(
      page.getByRole('heading', { name: 'Madrid Sol kiosk', exact: true }),
      'the details of the listed store',
    );
    expect(session.pageErrors).toEqual([]);
  });

  it('zooms with the buttons and the wheel, and pans by dragging', async () => {
    await showAll();
    const zoom = await zoomOf();
    const zoomIn = controls().getByRole('button', { name: 'Zoom in' });
    const zoomOut = controls().getByRole('button', { name: 'Zoom out' });
    await zoomIn.click();
    await expect.poll(zoomOf, PAGE_SHOWS).toBeCloseTo(zoom * 2, 1);
    await expectFocused(zoomIn, 'the zoom in button');
    await zoomOut.click();
    await expect.poll(zoomOf, PAGE_SHOWS).toBeCloseTo(zoom, 1);
    // Down to the whole world's width: "Zoom out" says it is unavailable and keeps the focus.
    for (let i = 0; i < 14 && (await zoomOut.getAttribute('aria-disabled')) !== 'true'; i++)
      await zoomOut.click();
    expect(await zoomOut.getAttribute('aria-disabled')).toBe('true');
    expect(await zoomOf()).toBe(1);
    await zoomOut.focus();
    await page.keyboard.press('Enter');
    expect(await zoomOf()).toBe(1);
    await expectFocused(zoomOut, 'the zoom out button at the limit');

    await showAll();
    await map().scrollIntoViewIfNeeded();
    let frame = (await map().boundingBox())!;
    await page.mouse.move(frame.x + frame.width / 2, frame.y + frame.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(zoomOf, PAGE_SHOWS).toBeGreaterThan(zoom * 1.2);

    // Zoomed in on the stores, so that the map can move every way.
    await showAll();
    await controls().getByRole('button', { name: 'Zoom in' }).click();
    await controls().getByRole('button', { name: 'Zoom in' }).click();
    const before = await worldOffset();
    const spot = await emptySpot();
    frame = (await map().boundingBox())!;
    const start = { x: frame.x + spot.x, y: frame.y + spot.y };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x - 20, start.y + 10, { steps: 4 });
    await page.mouse.move(start.x - 40, start.y + 20, { steps: 4 });
    await page.mouse.up();
    const after = await worldOffset();
    const moved = `from ${JSON.stringify(before)} to ${JSON.stringify(after)}, frame ${JSON.stringify(frame)}`;
    expect(after.x - before.x, moved).toBeCloseTo(-40, 0);
    expect(after.y - before.y, moved).toBeCloseTo(20, 0);
    // A drag is not a click: no position was picked.
    expect(await page.getByLabel('Latitude').inputValue()).toBe('');
  });

  it('warns of a store name the tenant has, next to the name, and saves it anyway once confirmed; refuses a latitude out of range', async () => {
    const warningOf = (name: string) =>
      page.getByText(
        `A store named “${name}” already exists. Stores are told apart by name on the map and in device lists; choose another name, or save it anyway.`,
      );
    const anyway = page.getByRole('button', { name: 'Save anyway' });
    const named = async (name: string) =>
      (await storesNow()).filter((s) => s.Name.trim().toLowerCase() === name.toLowerCase());

    // A new store named as one the tenant has (other case, spaces around it): warned next to the
    // name, nothing created, the focus on "Save anyway".
    await page.getByLabel('Store name').fill('  hamburg ');
    await page.getByLabel('Latitude').fill('53.6');
    await page.getByLabel('Longitude').fill('10');
    await page.getByRole('button', { name: 'Create store' }).click();
    await warningOf('Hamburg').waitFor();
    await expectFocused(anyway, 'the warning’s Save anyway button');
    expect(await named('hamburg')).toHaveLength(1);
    await checkPage(session, 'Stores and devices, name warning');
    // Changing the name takes the warning away.
    await page.getByLabel('Store name').fill('Hamburg Altona');
    await expect.poll(() => warningOf('Hamburg').count(), PAGE_SHOWS).toBe(0);
    expect(await anyway.count()).toBe(0);

    // Back to the name: warned again; saved anyway, but the latitude is out of range (refused
    // next to the field, the focus there).
    await page.getByLabel('Store name').fill('hamburg');
    await page.getByLabel('Latitude').fill('95');
    await page.getByRole('button', { name: 'Create store' }).click();
    await warningOf('Hamburg').waitFor();
    await expectFocused(anyway, 'the warning’s Save anyway button');
    await anyway.click();
    const latitudeError = page.locator('.field-error', { hasText: 'Latitude must be at most 90.' });
    await latitudeError.waitFor();
    await expectFocused(page.getByLabel('Latitude'), 'the latitude out of range');
    expect(await warningOf('Hamburg').count()).toBe(0);
    expect(await named('hamburg')).toHaveLength(1);
    // Once the latitude is fixed, the confirmed name is saved without asking again.
    await page.getByLabel('Latitude').fill('53.55');
    await expect.poll(() => latitudeError.count(), PAGE_SHOWS).toBe(0);
    await page.getByRole('button', { name: 'Create store' }).click();
    await expectFocused(storeNotice(), 'the status after creating a store');
    expect(await storeNotice().textContent()).toBe('Store “hamburg” created.');
    const hamburgs = await named('hamburg');
    expect(hamburgs.map((s) => s.Name).sort()).toEqual(['Hamburg', 'hamburg']);
    expect(new Set(hamburgs.map((s) => s.Id)).size).toBe(2);

    // Renaming a store to another store's name: warned, then saved anyway.
    await page.getByRole('button', { name: 'Edit Madrid Sol kiosk', exact: true }).click();
    await expectFocused(
      page.getByRole('heading', { name: 'Edit store “Madrid Sol kiosk”' }),
      'the edit form heading',
    );
    await page.getByLabel('Store name').fill('MADRID SOL');
    await page.getByRole('button', { name: 'Save store' }).click();
    await warningOf('Madrid Sol').waitFor();
    await expectFocused(anyway, 'the warning’s Save anyway button');
    expect(
      (await apiGet<StoreJson>(`/management/company/store/${ids['Madrid Sol kiosk']}`)).Name,
    ).toBe('Madrid Sol kiosk');
    await anyway.click();
    await expectFocused(storeNotice(), 'the status after saving a store');
    expect(await storeNotice().textContent()).toBe('Store “MADRID SOL” saved.');
    expect(
      (await apiGet<StoreJson>(`/management/company/store/${ids['Madrid Sol kiosk']}`)).Name,
    ).toBe('MADRID SOL');
    expect((await named('madrid sol')).map((s) => s.Id).sort()).toEqual(
      [ids['Madrid Sol']!, ids['Madrid Sol kiosk']!].sort(),
    );
    expect(await anyway.count()).toBe(0);
    await checkPage(session, 'Stores and devices (after changes)');
    expect(session.pageErrors).toEqual([]);
  });
  it('fits the stores added in one country, writes their names and the places, and picks precisely', async () => {
    // A tenant of its own, with no store yet: the map starts on the world.
    const fresh = await api.createTenant(`stores-fit-${size}`);
    await createMember(api, fresh, 'olivia', ['owner']);
    const other = await openConsole(browser, `http://stores-fit-${size}.localhost:${port}`, size);
    const { page: p } = other;
    await other.signIn('olivia', GOOD_PASSWORD);
    await other.openPage('Stores and devices');
    const freshMap = p.getByRole('application', { name: 'Map of the stores' });
    await freshMap.locator('path.land').waitFor({ state: 'attached' });
    const hint = p.locator('.map-hint');
    if (size === 'phone') {
      // A phone's words: tapping and pinching, not clicking and the wheel; the form first.
      expect(await hint.textContent()).toMatch(/^Tap the map/);
      const caption = (await p.locator('.map-caption').textContent())!;
      expect(caption).toContain('pinch');
      expect(caption).not.toContain('wheel');
      const form = (await p.getByLabel('Store name').boundingBox())!;
      expect(form.y).toBeLessThan((await freshMap.boundingBox())!.y);
    } else expect(await hint.textContent()).toMatch(/^Click the map/);

    // A click at the world's zoom sets the position and zooms in around it.
    const zoom = Number(await freshMap.getAttribute('data-zoom'));
    await freshMap.scrollIntoViewIfNeeded();
    const frame = (await freshMap.boundingBox())!;
    const at = { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 };
    if (size === 'phone') await p.touchscreen.tap(at.x, at.y);
    else await p.mouse.click(at.x, at.y);
    await expect.poll(() => p.getByLabel('Latitude').inputValue(), PAGE_SHOWS).not.toBe('');
    await expect
      .poll(async () => Number(await freshMap.getAttribute('data-zoom')), PAGE_SHOWS)
      .toBeGreaterThan(zoom * 3.9);

    // Three stores in Germany, typed in: the map fits them, each with its name written.
    const german = [
      { name: 'Berlin', lat: '52.52', lon: '13.405' },
      { name: 'Munich', lat: '48.137', lon: '11.575' },
      { name: 'Cologne', lat: '50.937', lon: '6.96' },
    ];
    for (const store of german) {
      await p.getByLabel('Store name').fill(store.name);
      await p.getByLabel('Latitude').fill(store.lat);
      await p.getByLabel('Longitude').fill(store.lon);
      await p.getByRole('button', { name: 'Create store' }).click();
      await p.getByText(`Store “${store.name}” created.`).waitFor();
    }
    await p.getByRole('group', { name: 'Map controls' }).waitFor();
    await expect.poll(() => freshMap.locator('.marker.store').count(), PAGE_SHOWS).toBe(3);
    for (const store of german) {
      const name = freshMap.locator(`.marker[data-store="${store.name}"] .name`);
      expect(await name.isVisible()).toBe(true);
      expect(await name.textContent()).toBe(store.name);
    }
    expect(await p.locator('.map-caption').textContent()).toContain('3 stores of 3 in view');
    // The countries are named, Germany among them.
    await expect
      .poll(() => freshMap.locator('.places text').allTextContents(), PAGE_SHOWS)
      .toContain('Germany');
    await checkPage(other, 'Stores, three in one country');
    expect(other.pageErrors).toEqual([]);
    await other.close();
  });
});
