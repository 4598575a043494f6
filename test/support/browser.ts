// Headless Chromium for the browser tests, found with `npm install` alone: the system's
// /usr/bin/chromium when there is one, else the Chromium that @sparticuz/chromium ships inside
// its npm package (unpacked once into the temp directory; never downloaded at run time).
import { existsSync } from 'node:fs';
import bundled from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

// Quiet and offline: no background traffic, no proxy, no resolver asked for *.localhost.
export const OFFLINE_FLAGS = [
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
  // *.localhost is loopback anyway; say so, so no resolver is ever asked.
  '--host-resolver-rules=MAP *.localhost 127.0.0.1',
];

export async function launchBrowser(): Promise<Browser> {
  if (existsSync(SYSTEM_CHROMIUM)) {
    return chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', ...OFFLINE_FLAGS],
    });
  }
  // The bundled build is a headless shell; its own flags (single process, no sandbox, software
  // graphics) are the ones it is built to run with.
  return chromium.launch({
    executablePath: await bundled.executablePath(),
    args: [...bundled.args, ...OFFLINE_FLAGS],
  });
}
