// What the console's browser tests share: a listening API whose tenant base URL is the port the
// browser calls (sign-in redirects and asset URLs name it), the axe-core check, screenshots of
// failed tests, and a small valid PNG to upload.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
export { startListeningApi } from '../../support/listening-api.ts';

/** Screenshots of failed browser tests (git-ignored). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '../../../test-results/console');

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP (script-src 'self') allows it.
  await page.evaluate(axe.source);
  // A string, as the tests are compiled without the DOM's types.
  const results = await page.evaluate<axe.AxeResults>(
    'axe.run(document, { resultTypes: ["violations"] })',
  );
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility of ${what}`).toEqual([]);
}

export async function screenshotOnFailure(page: Page | undefined, name: string): Promise<void> {
  if (!page || page.isClosed()) return;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`),
    fullPage: true,
  });
}

/** A 1×1 PNG (valid bytes: the API checks an image's content against its MIME type). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A DataTransfer holding that PNG as a file, as a drop of a file from the desktop carries. */
export function droppedPng(page: Page, fileName: string) {
  return page.evaluateHandle(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(PNG_BASE64)}), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], ${JSON.stringify(fileName)}, { type: 'image/png' }));
    return transfer;
  })()`);
}
