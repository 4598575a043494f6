// The portal page in headless Chromium (see test/support/browser.ts; never downloaded): it
// renders, lists the API operations and follows the live status without being reloaded.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { ControlledProvisioner, createEndpoint, waitForStatus } from './integration-fixtures.ts';

const provisioner = new ControlledProvisioner();
const api = useTestApi({ JOB_POLLING_INTERVAL_SECONDS: '1' }, { provisioner });
const acme = useTenant(api, 'acme');
let browser: Browser;
let port: number;

beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as { port: number }).port;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the portal page in a browser', () => {
  it('renders, lists the operations and turns from "Creation in progress" to "Live" without a reload', async () => {
    const release = provisioner.hold('browser-svc');
    const created = await createEndpoint(api, acme, {
      ServiceName: 'Browser-Svc',
      ServiceTier: 0,
      AdminMail: 'ops@acme.example',
    });
    expect(created.statusCode).toBe(201);
    await provisioner.reached('browser-svc');

    const page = await browser.newPage();
    try {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      const response = await page.goto(`http://browser-svc.portal.integration.localhost:${port}/`);
      expect(response?.status()).toBe(200);

      // Vitest's own deadline for a poll (one second) is shorter than a loaded machine may take.
      await expect.poll(() => page.title(), { timeout: 15_000 }).toContain('Browser-Svc');
      expect(await page.locator('h1').textContent()).toBe('Browser-Svc');
      expect(await page.locator('body').textContent()).toContain('Developer tier');
      const status = page.locator('#status');
      expect(await status.textContent()).toBe('Creation in progress');
      expect(await page.locator('#key').textContent()).toBe('not issued yet');

      // The API reference: a row per operation, this very endpoint's among them.
      const operations = page.locator('tr.operation');
      expect(await operations.count()).toBeGreaterThan(20);
      const rows = await operations.allTextContents();
      expect(rows).toContain(
        'GET/management/integration/endpointThe integration endpoint and its creation status',
      );
      expect(rows.some((r) => r.startsWith('POST/management/oauth/apps'))).toBe(true);
      expect(await page.locator('pre').textContent()).toContain(
        `http://browser-svc.integration.localhost:8080`,
      );

      // Live status: the page polls /status; the text changes in place.
      await page.evaluate("window.marker = 'same document'");
      release();
      await waitForStatus(api, acme, [2]);
      await expect
        .poll(() => status.textContent(), { timeout: 15_000, interval: 200 })
        .toBe('Live');
      expect(await status.getAttribute('data-status')).toBe('2');
      expect(await page.locator('#key').textContent()).toBe('active');
      expect(await page.evaluate('window.marker')).toBe('same document');
      expect(navigations).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
