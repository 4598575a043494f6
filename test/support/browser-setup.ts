// Vitest global setup: the Chromium inside @sparticuz/chromium unpacked once, before the workers
// start, where the machine has no /usr/bin/chromium (test/support/browser.ts). Two workers that
// each unpacked it on their first launch raced: one spawned the binary while the other was still
// writing it (`spawn ETXTBSY`, seen on a new machine). Once unpacked (in the temp directory) it
// is only looked up again.
import { existsSync } from 'node:fs';
import bundled from '@sparticuz/chromium';
import { SYSTEM_CHROMIUM } from './browser.ts';

export default async function setup(): Promise<void> {
  if (!existsSync(SYSTEM_CHROMIUM)) await bundled.executablePath();
}
