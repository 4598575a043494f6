// A signed-in console in a browser at one of the two sizes the console is built for (a laptop,
// 1366×900, and a phone, 390×844), with what every flow test checks: the page shown, the focus
// after an action, no sideways scroll at phone width, axe, and a screenshot of each page written
// into test-results/console/pages/<size>/ (git-ignored) for anyone to look at.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from './console-browser-fixtures.ts';

export const VIEWPORTS = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];

/**
 * For expect.poll on what the page shows after a render or a request: Vitest's own deadline (one
 * second) is shorter than a loaded machine may take; this one only bounds a failure.
 */
export const PAGE_SHOWS = { timeout: 20_000 };

export const PAGE_SCREENSHOT_DIR = join(import.meta.dirname, '../../../test-results/console/pages');

export interface ConsoleSession {
  page: Page;
  context: BrowserContext;
  viewport: ViewportName;
  /** JavaScript errors the page raised (a test expects none). */
  pageErrors: string[];
  /** Signs in through the tenant's sign-in page, from a signed-out console. */
  signIn(username: string, password: string): Promise<void>;
  /** Navigates with the console's own menu (opened first where it is collapsed). */
  openPage(label: string): Promise<void>;
  /**
   * Closes the session's page. Its context is left for the browser's own close: closing a
   * context ends the bundled Chromium (@sparticuz/chromium runs as a single process), and every
   * later session of the file with it.
   */
  close(): Promise<void>;
}

/** A new browser context at the given size, on the tenant's console (`base` is its origin). */
export async function openConsole(
  browser: Browser,
  base: string,
  viewport: ViewportName,
): Promise<ConsoleSession> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    ...(viewport === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // Confirmation dialogs (rotate, delete) are accepted.
  page.on('dialog', (dialog) => void dialog.accept());
  return {
    page,
    context,
    viewport,
    pageErrors,
    async signIn(username, password) {
      await page.goto(`${base}/console/`);
      await page.waitForURL((url) => url.pathname === '/oauth/authorize');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/console/'));
    },
    async openPage(label) {
      await openMenu(page);
      await page
        .getByRole('navigation', { name: 'Console pages' })
        .getByRole('link', { name: label, exact: true })
        .click();
      await expect
        .poll(() => page.locator('h1').first().textContent(), PAGE_SHOWS)
        .toContain(label);
    },
    close: () => page.close(),
  };
}

/** Opens the collapsed menu (a "Menu" button at phone width); nothing where it is always shown. */
export async function openMenu(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu', exact: true });
  // The frame renders once the session is read: the button is always there (hidden by CSS where
  // the menu does not fold), so wait for it before asking whether it shows.
  await page
    .getByRole('button', { name: 'Menu', exact: true, includeHidden: true })
    .waitFor({ state: 'attached', timeout: PAGE_SHOWS.timeout });
  if (!(await toggle.isVisible())) return;
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** The page does not scroll sideways: nothing is wider than the window. */
export async function expectNoHorizontalScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate<{
    scroll: number;
    client: number;
    culprits: string[];
  }>(`(() => {
    const root = document.scrollingElement || document.documentElement;
    const width = root.clientWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).position !== 'fixed')
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''));
    return { scroll: root.scrollWidth, client: width, culprits };
  })()`);
  expect(
    overflow.scroll,
    `${what} scrolls sideways (${overflow.scroll} px wide in ${overflow.client}): ${overflow.culprits.join(', ')}`,
  ).toBeLessThanOrEqual(overflow.client);
}

/** Where the keyboard focus is now: the element `locator` finds, within the poll's deadline. */
export async function expectFocused(locator: Locator, what: string): Promise<void> {
  await expect
    .poll(
      () =>
        locator.evaluate(
          (element: { ownerDocument: { activeElement: unknown } }) =>
            element === element.ownerDocument.activeElement,
        ),
      {
        ...PAGE_SHOWS,
        message: `focus on ${what}`,
      },
    )
    .toBe(true);
}

/** The element is within the window (not below the fold), within the poll's deadline. */
export async function expectInView(locator: Locator, what: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const box = await locator.boundingBox();
        const size = locator.page().viewportSize();
        return box !== null && size !== null && box.y >= 0 && box.y + box.height <= size.height;
      },
      { ...PAGE_SHOWS, message: `${what} in view` },
    )
    .toBe(true);
}

/** A full-page screenshot of the page as it is, named after the page and the size. */
export async function savePageScreenshot(
  page: Page,
  name: string,
  viewport: ViewportName,
): Promise<void> {
  const dir = join(PAGE_SCREENSHOT_DIR, viewport);
  await mkdir(dir, { recursive: true });
  await page.screenshot({
    path: join(dir, `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`),
    fullPage: true,
  });
}

/** The checks every page passes at every size: axe, no sideways scroll (phone), a screenshot. */
export async function checkPage(session: ConsoleSession, name: string): Promise<void> {
  await expectAccessible(session.page, `${name} (${session.viewport})`);
  if (session.viewport === 'phone') await expectNoHorizontalScroll(session.page, name);
  await savePageScreenshot(session.page, name, session.viewport);
}
