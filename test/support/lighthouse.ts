// Lighthouse on the console, in the Chromium the browser tests use (test/support/browser.ts: the
// system's /usr/bin/chromium, else the one @sparticuz/chromium ships; never downloaded). Lighthouse
// drives the page through Puppeteer (puppeteer-core, its own dependency, which downloads nothing),
// so a page can be signed in first and measured with its session: the console keeps its tokens in
// the tab's sessionStorage, which Lighthouse is told to keep (disableStorageReset).
import { existsSync } from 'node:fs';
import bundled from '@sparticuz/chromium';
import lighthouse, { desktopConfig, type Config, type Flags, type RunnerResult } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { OFFLINE_FLAGS, SYSTEM_CHROMIUM } from './browser.ts';

/** Runs of one page at most while its trace holds no screenshot (see runLighthouse). */
const SCREENSHOT_ATTEMPTS = 4;

export type FormFactor = 'mobile' | 'desktop';
export type Category = 'performance' | 'accessibility' | 'best-practices';

export interface LighthouseResult {
  /** Category → score out of 100. */
  scores: Partial<Record<Category, number>>;
  /** Audits that did not pass in the categories asked for: id → title (and the figure). */
  failing: Record<string, string>;
  /** Largest Contentful Paint and Total Blocking Time, in ms (with the performance category). */
  lcp?: number;
  tbt?: number;
}

export async function launchLighthouseBrowser(): Promise<Browser> {
  const offline = OFFLINE_FLAGS;
  if (existsSync(SYSTEM_CHROMIUM))
    return puppeteer.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', ...offline],
    });
  return puppeteer.launch({
    executablePath: await bundled.executablePath(),
    // The bundled build's own flags, less the two that would cost the audits their truth: web
    // security off (CORS and mixed content unchecked) and insecure content allowed.
    args: [
      ...bundled.args.filter(
        (a) => a !== '--disable-web-security' && a !== '--allow-running-insecure-content',
      ),
      ...offline,
    ],
  });
}

/** Lighthouse's run of `url` in `page` (already signed in where the page needs it). */
export async function runLighthouse(
  page: Page,
  url: string,
  formFactor: FormFactor,
  categories: Category[],
): Promise<LighthouseResult> {
  const flags: Flags = {
    logLevel: 'error',
    output: 'json',
    onlyCategories: categories,
    // The console's session lives in the tab's sessionStorage.
    disableStorageReset: true,
  };
  const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
  let lhr: RunnerResult['lhr'] | undefined;
  // The bundled headless Chromium now and then traces a load without a single screenshot, and
  // Lighthouse then has no Speed Index and no performance score: that run is made again.
  for (let attempt = 1; attempt <= SCREENSHOT_ATTEMPTS; attempt++) {
    const answer = await lighthouse(url, flags, config, page);
    if (!answer) throw new Error(`Lighthouse gave no result for ${url}`);
    lhr = answer.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    if (!categories.includes('performance') || lhr.categories.performance?.score !== null) break;
  }
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  const scores: LighthouseResult['scores'] = {};
  const failing: Record<string, string> = {};
  for (const category of categories) {
    const entry = lhr.categories[category];
    scores[category] = Math.round((entry?.score ?? 0) * 100);
    for (const ref of entry?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (audit?.errorMessage) failing[ref.id] = `${audit.title}: ${audit.errorMessage}`;
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      failing[ref.id] = `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`;
    }
  }
  const metric = (id: string) => lhr.audits[id]?.numericValue;
  return {
    scores,
    failing,
    ...(categories.includes('performance')
      ? { lcp: metric('largest-contentful-paint'), tbt: metric('total-blocking-time') }
      : {}),
  };
}

/** Signs `page` in through the tenant's sign-in page; it ends on the console's dashboard. */
export async function signInPage(
  page: Page,
  base: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${base}/console/`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('input[name="username"], #username');
  await page.type('input[name="username"], #username', username);
  await page.type('input[name="password"], #password', password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0' }),
    page.click('button[type="submit"]'),
  ]);
  await page.waitForFunction("location.pathname.startsWith('/console/')");
}
