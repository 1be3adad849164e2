/**
 * Headless Chromium for the browser tests (the `/docs` page, the console): Debian's `chromium`, or `CHROMIUM_PATH`,
 * driven by puppeteer-core. The browser may reach 127.0.0.1 only: {@link confineToLoopback} refuses every other request
 * and records it, and host names resolve to nothing.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'puppeteer-core';

/** Where a Chromium is usually installed (Debian's package first). */
export const BROWSER_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

/**
 * The browser to drive: `CHROMIUM_PATH` when set (it must exist), else the first usual path that exists.
 * @throws Error when `CHROMIUM_PATH` names no file
 */
export function browserExecutable(): string | undefined {
  const configured = process.env['CHROMIUM_PATH'];
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured}: no such file`);
    return configured;
  }
  return BROWSER_CANDIDATES.find((path) => existsSync(path));
}

/** Launch flags: no sandbox (CI runs as root), and no network of the browser's own (updates, sync, DNS). */
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/**
 * Let `page` reach 127.0.0.1 (and `data:`/`blob:` URLs) only; every other request is aborted and pushed to `offsite`.
 * Page errors, and console errors about the Content-Security-Policy, are pushed to `pageErrors`.
 */
export async function confineToLoopback(page: Page, offsite: string[], pageErrors: string[]): Promise<void> {
  await page.setRequestInterception(true);
  page.on('request', (intercepted) => {
    const url = new URL(intercepted.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1')
      void intercepted.continue();
    else {
      offsite.push(intercepted.url());
      void intercepted.abort();
    }
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) pageErrors.push(message.text());
  });
}
