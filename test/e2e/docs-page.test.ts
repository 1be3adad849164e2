/**
 * The API reference page in a real browser: headless Chromium (Debian's `chromium`, or `CHROMIUM_PATH`) driven by
 * puppeteer-core against a spawned API that authenticates its callers. The browser may reach 127.0.0.1 only: every
 * other request is refused and fails the test, and host names resolve to nothing.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BROWSER_ARGS, BROWSER_CANDIDATES, browserExecutable, confineToLoopback } from '../helpers/browser.js';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';

const API_KEY = 'docs-page-test-key';

interface OpenApi {
  paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
}

describe('API reference page (/docs) in headless Chromium', function () {
  this.timeout(180000);
  let api: ServiceProcess | undefined;
  let baseUrl: string;
  let browser: Browser | undefined;
  let page: Page;
  const offsite: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    const executablePath = browserExecutable();
    if (!executablePath) {
      process.stderr.write(
        `\n  No Chromium found (set CHROMIUM_PATH, or install Debian's: apt-get install chromium; looked at ${BROWSER_CANDIDATES.join(', ')}): skipping the /docs browser test.\n\n`,
      );
      this.skip();
    }
    ({ api, baseUrl } = await spawnApi({ AUTH_MODE: 'api_key', API_KEY }));
    browser = await puppeteer.launch({ executablePath, headless: true, args: BROWSER_ARGS });
    page = await browser.newPage();
    await confineToLoopback(page, offsite, pageErrors);
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('should send a browser from / to /docs, which asks for a bearer token', async () => {
    await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
    expect(new URL(page.url()).pathname).to.equal('/docs');
    await page.waitForSelector('#token-form:not([hidden])');
    expect(await page.$eval('#token-message', (element) => element.textContent)).to.include('bearer token');
  });

  it('should list every route of the OpenAPI document once given the token', async () => {
    await page.type('#token', API_KEY);
    await page.click('#token-form button[type="submit"]');
    await page.waitForSelector('.opblock-summary-path');
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (block) =>
          // a deprecated operation (the older unversioned routes) shows its path under a class of its own
          `${block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path')}`,
      ),
    );
    const response = await fetch(`${baseUrl}/v1/openapi.json`, { headers: { Authorization: `Bearer ${API_KEY}` } });
    const document = (await response.json()) as OpenApi;
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(listed).to.have.members(documented);
    expect(listed).to.include.members(['post /v1/execute', 'get /v1/version', 'get /v1/openapi.json']);
  });

  it('should try GET /v1/version out and show the 200 and the version JSON', async () => {
    const block = '#operations-discovery-get_version_v1_version_get';
    await page.click(`${block} .opblock-summary-control`);
    await page.waitForSelector(`${block} .try-out__btn`);
    await page.click(`${block} .try-out__btn`);
    await page.waitForSelector(`${block} .execute`);
    await page.click(`${block} .execute`);
    await page.waitForSelector(`${block} .live-responses-table tr.response`);
    const status = await page.$eval(`${block} .live-responses-table tr.response .response-col_status`, (cell) =>
      cell.textContent?.trim(),
    );
    expect(status).to.equal('200');
    const body = await page.$eval(`${block} .live-responses-table tr.response .highlight-code pre`, (pre) =>
      JSON.parse(pre.textContent ?? 'null'),
    );
    expect(body).to.deep.equal({
      protocol_version: '0.7.0',
      runner_version: '0.1.0',
      implementation: 'mthds-runner',
      implementation_version: '0.1.0',
      runtime_version: '0.1.0',
      extensions: ['api_keys', 'methods', 'method_versions', 'runs', 'usage'],
    });
  });

  it('should leave a screenshot, having reached nothing but 127.0.0.1 and broken no policy', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mthds-docs-page-'));
    const path = join(directory, 'docs.png');
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).to.be.greaterThan(10000);
    process.stderr.write(`      screenshot: ${path}\n`);
    expect(offsite).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});
