/**
 * The method console (docs/console.md) in a real browser: headless Chromium (Debian's `chromium`, or `CHROMIUM_PATH`)
 * driven by puppeteer-core — the project's browser driver, used here instead of Playwright — against a queue-mode
 * deployment in this process (real Redis, a real PostgreSQL control plane, a fake OpenAI-compatible provider on
 * 127.0.0.1). The browser may reach 127.0.0.1 only.
 *
 * One person's journey, in order: sign in with an organization's key; create a method from a sample bundle of our
 * own after applying the fix the editor offers for the error it underlines; see every pipe drawn; publish; fill the
 * run form, uploading a PDF through an upload grant; watch every pipe reach `finished` and read the output; find the
 * run in the history by filter. Then: cancel a run held by the provider from its page and see `CANCELLED`; create a
 * key, see it work, revoke it and see it refused. Each page is screenshot at 1440×900 (into
 * `CONSOLE_SCREENSHOT_DIR`, else a temporary folder) and checked with axe-core for serious or critical violations.
 *
 * The console's static files are built first (`node scripts/build.mjs --console`) when missing or older than its
 * sources: the API running from sources serves `console/dist/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BROWSER_ARGS, BROWSER_CANDIDATES, browserExecutable, confineToLoopback } from '../helpers/browser.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import {
  completion,
  type FakeOpenAiServer,
  providerError,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { DOCUMENT_DATA_URL } from '../helpers/form-values.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { listenOnLoopback } from '../helpers/raw-http.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONSOLE_BUILD = join(ROOT, 'console', 'dist', 'index.html');
const ADMIN = 'console-admin-key';
/** What the fake provider answers a summary with. */
const SUMMARY = 'The brief asks for a rocket by Friday.';
/** How long a held provider call would take: far longer than the test. */
const HELD_MS = 30_000;

/**
 * The sample bundle: a sequence extracting a PDF's pages then summarizing them. Its `main_pipe` is written qualified
 * with the domain, an error the editor underlines and offers to fix (`strip-namespace`, docs/suggested-fixes.md).
 */
const SAMPLE_BUNDLE = `domain = "brief_reader"
description = "Read a brief and summarize it with a focus"
main_pipe = "brief_reader.read_brief"

[concept.Summary]
description = "A short summary of a brief"
refines = "Text"

[pipe.read_brief]
type = "PipeSequence"
description = "Extract the brief's pages, then summarize them"
inputs = { brief = "Document", focus = "Text" }
output = "Summary"
steps = [
  { pipe = "extract_pages", result = "pages" },
  { pipe = "summarize", result = "summary" },
]

[pipe.extract_pages]
type = "PipeExtract"
description = "Read the pages of the brief"
inputs = { brief = "Document" }
output = "Page[]"
model = "$extract_testing"

[pipe.summarize]
type = "PipeLLM"
description = "Summarize the pages with the focus asked"
inputs = { pages = "Page[]", focus = "Text" }
output = "Summary"
prompt = """
Summarize these pages, focusing on $focus:

@pages
"""
`;

/** The latest modification time under `path`. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** Build the console unless its build is newer than its sources. */
function buildConsoleIfStale(): void {
  const sources = ['src', 'index.html', 'tsconfig.json'].map((name) => newest(join(ROOT, 'console', name)));
  if (existsSync(CONSOLE_BUILD) && statSync(CONSOLE_BUILD).mtimeMs > Math.max(...sources)) return;
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--console'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the console did not build:\n${built.stderr}`);
}

/**
 * Launch the browser with one page 1440×900, confined to 127.0.0.1, accepting every confirmation dialog.
 * @param executablePath - the Chromium to drive
 */
async function openBrowser(
  executablePath: string,
  offsite: string[],
  pageErrors: string[],
): Promise<{ browser: Browser; page: Page }> {
  const browser = await puppeteer.launch({ executablePath, headless: true, args: BROWSER_ARGS });
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on('dialog', (dialog) => void dialog.accept());
  await confineToLoopback(page, offsite, pageErrors);
  return { browser, page };
}

/** Skip the calling suite, with a message, when no Chromium is installed; else the one to drive. */
function chromiumOrSkip(context: Mocha.Context): string {
  const executablePath = browserExecutable();
  if (!executablePath) {
    process.stderr.write(
      `\n  No Chromium found (set CHROMIUM_PATH, or install Debian's: apt-get install chromium; looked at ${BROWSER_CANDIDATES.join(', ')}): skipping the console browser test.\n\n`,
    );
    context.skip();
  }
  return executablePath!;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe('method console (/console) in headless Chromium, queue mode', function () {
  this.timeout(120_000);
  const suite = useTestControlPlane();
  let fake: FakeOpenAiServer;
  let deployment: QueueDeployment;
  let server: Server;
  let base: string;
  let browser: Browser | undefined;
  let page: Page;
  let orgKey: string;
  let work: string;
  let screenshots: string;
  let axeSource: string;
  /** How the fake provider answers: at once, held past the test, or with a refusal that fails the run. */
  let provider: 'answer' | 'hold' | 'refuse' = 'answer';
  const offsite: string[] = [];
  const pageErrors: string[] = [];
  const accessibility: string[] = [];
  let methodId: string;
  let runId: string;

  async function call(method: string, path: string, token: string, body?: unknown) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Screenshot the page as it stands and check it with axe-core. */
  async function record(name: string): Promise<void> {
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    for (const violation of violations)
      if (violation.impact === 'serious' || violation.impact === 'critical')
        accessibility.push(
          `${name}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        );
  }

  const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
  /** Wait until the element `selector` names shows `expected` (the predicate runs in the page, hence a string). */
  const waitForText = (selector: string, expected: string, timeout = 30_000) =>
    page.waitForFunction(
      `document.querySelector(${JSON.stringify(selector)})?.textContent?.includes(${JSON.stringify(expected)}) === true`,
      { timeout },
    );

  before(async function () {
    const executablePath = chromiumOrSkip(this);
    buildConsoleIfStale();
    axeSource = axe.source;
    work = mkdtempSync(join(tmpdir(), 'mthds-console-'));
    screenshots = process.env['CONSOLE_SCREENSHOT_DIR'] ?? join(work, 'screenshots');
    mkdirSync(screenshots, { recursive: true });
    fake = await startFakeOpenAiServer();
    fake.respondWith(() =>
      provider === 'hold'
        ? { ...completion('late'), delayMs: HELD_MS }
        : provider === 'refuse'
          ? providerError(400, 'The fake provider refuses this prompt.')
          : completion(SUMMARY),
    );
    deployment = startQueueDeployment({
      controlPlane: suite.database,
      environment: {
        AUTH_MODE: 'api_key',
        API_KEY: ADMIN,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
        INFERENCE_MAX_RETRIES: '0',
        STORAGE_DIR: join(work, 'storage'),
      },
    });
    server = await listenOnLoopback(createServer(deployment.app));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const organization = await call('POST', '/v1/organizations', ADMIN, { name: 'Console test' });
    const issued = await call('POST', '/v1/pipelex-api-keys', ADMIN, {
      label: 'console',
      organization_id: organization.body.org_id,
    });
    orgKey = issued.body.api_key;
    ({ browser, page } = await openBrowser(executablePath, offsite, pageErrors));
  });

  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await closeControlPlaneApps();
    await deployment?.close();
    await fake?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    if (screenshots && !process.env['CONSOLE_SCREENSHOT_DIR'])
      process.stderr.write('      (screenshots removed with the temporary folder)\n');
  });

  it('should serve the page with a same-origin policy and its hashed assets with long-lived caching', async () => {
    const response = await fetch(`${base}/console/methods`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    expect(response.headers.get('content-security-policy')).to.include("default-src 'self'");
    const html = await response.text();
    const asset = /\/console\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset, html).to.be.a('string');
    const script = await fetch(`${base}${asset}`);
    expect(script.status).to.equal(200);
    expect(script.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect((await fetch(`${base}/console/assets/missing.js`)).status).to.equal(404);
  });

  it('should sign in with an API key, and report the first load time', async () => {
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    const loadMs = Number(
      await page.evaluate(
        "(([navigation]) => navigation.loadEventEnd - navigation.startTime)(performance.getEntriesByType('navigation'))",
      ),
    );
    process.stderr.write(`      first load of /console: ${loadMs.toFixed(0)} ms\n`);
    await page.waitForSelector('#token');
    await page.type('#token', 'plx_sk_not-a-key');
    await page.click('form button[type="submit"]');
    await waitForText('.state-error', 'Unauthenticated');
    await record('sign-in');
    await page.click('#token', { count: 3 });
    await page.type('#token', orgKey);
    await page.click('form button[type="submit"]');
    await page.waitForSelector('nav[aria-label="Console"]');
    await waitForText('.state-empty', 'No method yet');
    await record('methods-empty');
  });

  it('should create a method from a sample bundle once the underlined error is fixed, and draw every pipe', async () => {
    const bundleFile = join(work, 'brief_reader.mthds');
    writeFileSync(bundleFile, SAMPLE_BUNDLE);
    await page.click('a[href="/console/methods/new"]');
    await page.waitForSelector('#bundle-file');
    const picker = await page.$('#bundle-file');
    await (picker as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(bundleFile);
    await page.waitForSelector('.cm-lintRange-error', { timeout: 30_000 });
    await waitForText('[data-testid="editor-status"]', '1 problem(s) to fix.');
    expect(await page.$eval('#method-name', (input) => (input as unknown as { value: string }).value)).to.equal(
      'brief_reader',
    );
    await record('new-method-error');
    await page.click('.cm-content');
    await page.keyboard.down('Control');
    await page.keyboard.down('Shift');
    await page.keyboard.press('KeyM');
    await page.keyboard.up('Shift');
    await page.keyboard.up('Control');
    const fix = await page.waitForSelector('.cm-diagnosticAction');
    expect(await fix!.evaluate((button) => button.textContent)).to.include('strip-namespace');
    await fix!.click();
    await waitForText('[data-testid="editor-status"]', 'The source validates.');
    expect(await page.$('.cm-lintRange-error')).to.equal(null);
    await page.click('form button[type="submit"]');
    await page.waitForSelector('[data-testid="method-graph"] [data-pipe]', { timeout: 30_000 });
    methodId = new URL(page.url()).pathname.split('/').pop()!;
    expect(methodId).to.match(/^mt_/);
    const drawn = await page.$$eval('[data-pipe]', (cards) => cards.map((card) => card.getAttribute('data-pipe')));
    expect(drawn).to.have.members(['read_brief', 'extract_pages', 'summarize']);
    // the stuff flowing between pipes: the pages extracted, read by the summary
    await page.waitForSelector('.react-flow__edge');
    expect(
      await page.$$eval('.react-flow__edge-text', (labels) => labels.map((label) => label.textContent)),
    ).to.include('pages');
    expect(await text('table')).to.include('brief_reader.read_brief');
    await record('method-graph');
  });

  it('should format the draft on save, then publish it from the editor', async () => {
    await page.click('button[role="tab"]:nth-child(2)');
    await waitForText('[data-testid="editor-status"]', 'The source validates.');
    await page.click('.cm-content');
    await page.keyboard.down('Control');
    await page.keyboard.press('End');
    await page.keyboard.up('Control');
    await page.keyboard.type('\n[concept.Note]\ndescription="A note on a brief"\nrefines="Text"\n');
    await waitForText('[data-testid="editor-status"]', 'The source validates.');
    await record('method-editor');
    await page.click('.actions button:nth-child(1)');
    await waitForText('[data-testid="publish-status"]', 'Draft saved (formatted).');
    expect(await text('.cm-content')).to.include('description = "A note on a brief"');
    await page.click('.actions button:nth-child(2)');
    await waitForText('[data-testid="publish-status"]', 'Published version 1.');
    const stored = await call('GET', `/v1/methods/${methodId}`, orgKey);
    expect(stored.body.mthds).to.include('[concept.Note]\ndescription = "A note on a brief"');
    expect(stored.body.latest_published.version).to.equal(1);
    await page.click('button[role="tab"]:nth-child(4)');
    await page.waitForSelector('table tbody tr');
    await record('method-versions');
  });

  it('should fill the input form with a PDF upload, run it on the queue, and watch every pipe finish', async () => {
    const pdf = join(work, 'brief.pdf');
    writeFileSync(pdf, Buffer.from(DOCUMENT_DATA_URL.slice(DOCUMENT_DATA_URL.indexOf(',') + 1), 'base64'));
    await page.click('button[role="tab"]:nth-child(3)');
    await page.waitForSelector('form.run-form');
    await page.click('form.run-form button[type="submit"]');
    await waitForText('form.run-form', 'Required.');
    await page.type('[data-field="focus"]', 'deadlines');
    const file = await page.$('[data-field="brief"]');
    await (file as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(pdf);
    await record('run-form');
    await page.click('form.run-form button[type="submit"]');
    await page.waitForFunction(String.raw`/\/console\/runs\/[^/]+$/.test(location.pathname)`, { timeout: 30_000 });
    runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.waitForSelector('[data-testid="method-graph"] [data-pipe]', { timeout: 30_000 });
    await page.waitForFunction(
      "[...document.querySelectorAll('[data-pipe]')].filter((card) => card.getAttribute('data-state') === 'finished').length === 3",
      { timeout: 60_000 },
    );
    await waitForText('[data-testid="run-status"]', 'COMPLETED');
    await waitForText('[data-testid="run-output"]', SUMMARY);
    expect(await text('[data-testid="pipe-runs"]')).to.include('extract_pages');
    expect(await text('[data-testid="run-usage"]')).to.match(/Calls\s*1/);
    const prompt = fake.requests
      .at(-1)
      ?.body.messages?.map((message) => JSON.stringify(message.content))
      .join(' ');
    expect(prompt).to.include('deadlines');
    await record('run-completed');
    await page.click('details > summary');
    expect(await text('details'))
      .to.include('focus')
      .and.include('deadlines')
      .and.include('inline document');
  });

  it('should find the run in the history by state and method', async () => {
    await page.click('a[href="/console/runs"]');
    await page.waitForSelector('select[name="state"]');
    await page.select('select[name="state"]', 'COMPLETED');
    await page.type('input[name="method_id"]', methodId);
    // the unfiltered list shown before the submit may hold the run too: wait for the filtered answer first
    const filtered = page.waitForResponse(
      (answer) => answer.url().includes('/v1/runs?') && answer.url().includes('state=COMPLETED'),
      { timeout: 30_000 },
    );
    await page.click('.filters button[type="submit"]');
    await filtered;
    await page.waitForFunction(
      `(() => { const rows = document.querySelectorAll('tr[data-run]'); return rows.length === 1 && rows[0].getAttribute('data-run') === ${JSON.stringify(runId)}; })()`,
      { timeout: 30_000 },
    );
    expect(await page.$$eval('tr[data-run]', (rows) => rows.map((row) => row.getAttribute('data-run')))).to.deep.equal([
      runId,
    ]);
    await record('runs');
    await page.select('select[name="state"]', 'FAILED');
    await page.click('.filters button[type="submit"]');
    await waitForText('.state-empty', 'No run matches');
  });

  /** Start a run of the method through the API, with the sample PDF inline. */
  async function startRun(focus: string): Promise<string> {
    const started = await call('POST', '/v1/start', orgKey, {
      method_id: methodId,
      inputs: {
        brief: { concept: 'native.Document', content: { url: DOCUMENT_DATA_URL } },
        focus: { concept: 'native.Text', content: { text: focus } },
      },
    });
    expect(started.status).to.equal(202);
    return started.body.pipeline_run_id;
  }

  it('should show the error of a failed run with its failing pipe, and retry it to completion', async () => {
    provider = 'refuse';
    const failed = await startRun('risks');
    await page.goto(`${base}/console/runs/${encodeURIComponent(failed)}`, { waitUntil: 'load' });
    await waitForText('[data-testid="run-status"]', 'FAILED');
    await page.waitForSelector('[data-testid="run-error"]');
    const report = await text('[data-testid="run-error"]');
    expect(report).to.include('Failing pipe').and.include('summarize');
    await page.waitForSelector('[data-pipe="summarize"][data-state="failed"]');
    await record('run-failed');
    provider = 'answer';
    const [retry] = await page.$$('xpath/.//button[text()="Retry"]');
    await retry!.click();
    await page.waitForFunction(
      `location.pathname !== ${JSON.stringify(`/console/runs/${encodeURIComponent(failed)}`)}`,
      { timeout: 30_000 },
    );
    await waitForText('[data-testid="run-status"]', 'COMPLETED');
    await waitForText('[data-testid="run-output"]', SUMMARY);
    await waitForText('.page-head', `retries ${failed}`);
  });

  it('should cancel a run held by the provider from its page and show CANCELLED', async () => {
    provider = 'hold';
    const calls = fake.requests.length;
    const started = { body: { pipeline_run_id: await startRun('budget') } };
    await page.goto(`${base}/console/runs/${encodeURIComponent(started.body.pipeline_run_id)}`, { waitUntil: 'load' });
    await pollUntil(
      async () => fake.requests.length,
      (count) => count > calls,
      30_000,
    );
    await page.waitForSelector('[data-pipe="summarize"][data-state="running"]', { timeout: 30_000 });
    await record('run-live');
    await page.click('button.danger');
    await waitForText('[data-testid="run-status"]', 'CANCELLED');
    await page.waitForSelector('[data-testid="run-error"]');
    expect(await text('[data-testid="run-error"]')).to.include('RunCancelledError');
    await record('run-cancelled');
  });

  it('should cancel every unfinished run of the method from the history at once', async () => {
    const calls = fake.requests.length;
    const held = [await startRun('first'), await startRun('second')];
    await pollUntil(
      async () => fake.requests.length,
      (count) => count >= calls + 1,
      30_000,
    );
    await page.click('a[href="/console/runs"]');
    await page.waitForSelector('input[name="method_id"]');
    await page.type('input[name="method_id"]', methodId);
    await page.click('.filters button[type="submit"]');
    await page.waitForSelector(`tr[data-run="${held[1]}"]`);
    const [cancelAll] = await page.$$('xpath/.//button[contains(text(), "Cancel every unfinished run")]');
    await cancelAll!.click();
    await waitForText('.actions output', '2 run(s) cancelled.');
    for (const id of held)
      expect((await call('GET', `/v1/runs/${encodeURIComponent(id)}/status`, orgKey)).body.status).to.equal(
        'CANCELLED',
      );
    provider = 'answer';
  });

  it('should show usage charts', async () => {
    await page.click('a[href="/console/usage"]');
    await page.waitForSelector('[data-testid="usage-day"] .recharts-surface', { timeout: 30_000 });
    await record('usage');
  });

  it('should create a key shown once, and revoke it', async () => {
    await page.click('a[href="/console/keys"]');
    await page.waitForSelector('[data-testid="keys-table"]');
    await page.type('input[name="label"]', 'console-e2e');
    await page.click('.filters button[type="submit"]');
    await page.waitForSelector('[data-testid="issued-key"] .secret');
    const key = await text('[data-testid="issued-key"] .secret');
    expect(key).to.match(/^plx_sk_/);
    expect((await call('GET', '/v1/version', key)).status).to.equal(200);
    await page.waitForSelector('tr[data-label="console-e2e"]');
    await record('keys');
    // a locator waits for the row's button to be attached and stable: the table re-renders as it refetches keys
    await page.locator('tr[data-label="console-e2e"] button:not(.danger)').click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="issued-key"] .secret')?.textContent !== ${JSON.stringify(key)}`,
    );
    const rotated = await text('[data-testid="issued-key"] .secret');
    expect(rotated).to.match(/^plx_sk_/);
    expect((await call('GET', '/v1/version', rotated)).status).to.equal(200);
    await page.locator('tr[data-label="console-e2e"] button.danger').click();
    await page.waitForFunction(`document.querySelector('tr[data-label="console-e2e"]') === null`);
    for (const refused of [key, rotated])
      await pollUntil(
        async () => (await call('GET', '/v1/version', refused)).status,
        (status) => status === 401,
        10_000,
        200,
      );
  });

  it('should fit a laptop screen (1280 px) without scrolling sideways', async () => {
    await page.setViewport({ width: 1280, height: 800 });
    for (const path of [
      '/console/methods',
      `/console/methods/${methodId}`,
      `/console/runs/${encodeURIComponent(runId)}`,
      '/console/runs',
      '/console/usage',
      '/console/keys',
    ]) {
      await page.goto(`${base}${path}`, { waitUntil: 'load' });
      await page.waitForSelector('main h1');
      expect(Number(await page.evaluate('document.documentElement.scrollWidth')), path).to.be.at.most(1280);
    }
    await page.setViewport({ width: 1440, height: 900 });
  });

  it('should have reached nothing but 127.0.0.1, broken no policy and have no serious accessibility violation', () => {
    process.stderr.write(`      screenshots: ${screenshots}\n`);
    expect(offsite).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
    expect(accessibility).to.deep.equal([]);
  });
});

describe('method console (/console) in headless Chromium, direct mode (no queue), S3 storage', function () {
  this.timeout(60_000);
  const suite = useTestControlPlane();
  let s3: S3Server | undefined;
  let server: Server;
  let base: string;
  let browser: Browser | undefined;
  let page: Page;
  let work: string;
  const offsite: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    const executablePath = chromiumOrSkip(this);
    buildConsoleIfStale();
    work = mkdtempSync(join(tmpdir(), 'mthds-console-direct-'));
    s3 = await startS3Server();
    const app = buildControlPlaneApp(suite.database, {
      AUTH_MODE: 'api_key',
      API_KEY: ADMIN,
      INFERENCE_PROFILE: 'mock',
      ...s3.environment,
    });
    server = await listenOnLoopback(createServer(app));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    ({ browser, page } = await openBrowser(executablePath, offsite, pageErrors));
  });

  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await closeControlPlaneApps();
    await s3?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('should upload a PDF whose grant is on another origin, run the method as a blocking run, and open its page', async () => {
    const created = await fetch(`${base}/v1/methods`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'pages',
        mthds: `domain = "pages"\nmain_pipe = "read_pages"\n\n[pipe.read_pages]\ntype = "PipeExtract"\ndescription = "Read the pages"\ninputs = { doc = "Document" }\noutput = "Page[]"\nmodel = "$extract_testing"\n`,
      }),
    });
    expect(created.status).to.equal(201);
    const { method_id: methodId } = (await created.json()) as { method_id: string };
    const pdf = join(work, 'form.pdf');
    writeFileSync(pdf, Buffer.from(DOCUMENT_DATA_URL.slice(DOCUMENT_DATA_URL.indexOf(',') + 1), 'base64'));
    await page.goto(`${base}/console/methods/${methodId}?tab=run`, { waitUntil: 'load' });
    await page.type('#token', ADMIN);
    await page.click('form button[type="submit"]');
    const file = await page.waitForSelector('[data-field="doc"]');
    await (file as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(pdf);
    await page.click('form.run-form button[type="submit"]');
    await page.waitForFunction(String.raw`/\/console\/runs\/[^/]+$/.test(location.pathname)`, { timeout: 30_000 });
    await page.waitForFunction(`document.querySelector('[data-testid="run-status"]')?.textContent === 'COMPLETED'`, {
      timeout: 30_000,
    });
    await page.waitForSelector('[data-pipe="read_pages"][data-state="finished"]');
    await page.waitForFunction(
      `document.querySelector('[data-testid="run-output"]')?.textContent?.includes('Form value') === true`,
    );
    // the grant pointed at the bucket, another origin: a PUT there would have broken the page's connect-src policy
    expect(offsite).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});
