import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The packages only the queue mode and outbound requests need (docs/architecture.md "Startup"). */
const LAZY_PACKAGES = ['bullmq', 'ioredis', 'undici'];

/** The module specifiers a compiled file imports statically (esbuild writes one `import … from "…";` per line). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^import(?:[\s\S]*?from)?\s*"([^"]+)";$/gm)].map((match) => match[1]!);
}

/** Every package the compiled entry loads before its first line runs: its static imports, chunks followed. */
function packagesLoadedAtStart(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/')[0]!);
    }
  }
  return packages;
}

async function post(baseUrl: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('the production build (scripts/build.mjs: dist/, what npm start runs)', function () {
  this.timeout(300000);
  const started: ServiceProcess[] = [];

  before(() => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).to.equal(0);
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
  });

  it('should not load the queue stack or the HTTP client before the API serves in direct mode', () => {
    const packages = packagesLoadedAtStart(join(ROOT, 'dist/api/server.js'));
    expect(packages.has('express'), [...packages].join(', ')).to.equal(true);
    for (const name of LAZY_PACKAGES)
      expect(packages.has(name), `${name} in ${[...packages].join(', ')}`).to.equal(false);
  });

  it('should serve validate and execute, a failed run naming its error type', async () => {
    const { api, baseUrl } = await spawnApi({}, { compiled: true });
    started.push(api);
    expect((await fetch(`${baseUrl}/health`)).status).to.equal(200);
    const validated = await post(baseUrl, '/v1/validate', { mthds_contents: [GREETING_BUNDLE] });
    expect(validated.status, JSON.stringify(validated.body)).to.equal(200);
    const greeted = await post(baseUrl, '/v1/execute', {
      mthds_contents: [GREETING_BUNDLE],
      inputs: { name: 'Ada' },
    });
    expect(greeted.status, JSON.stringify(greeted.body)).to.equal(200);
    expect(greeted.body).to.have.property('pipeline_state', 'COMPLETED');
    const failed = await post(baseUrl, '/v1/execute', { mthds_contents: [FILING_BUNDLE], inputs: { name: 'Ada' } });
    expect(JSON.stringify(failed.body)).to.include('"error_type":"PipeFeatureNotSupportedError"');
  });

  describe('in queue mode', () => {
    let prefix: string;

    beforeEach(() => {
      prefix = uniquePrefix();
    });

    afterEach(async () => {
      await deletePrefix(prefix).catch(() => undefined);
    });

    it('should run a started run on a compiled worker', async () => {
      const environment = { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR };
      const { api, baseUrl } = await spawnApi(environment, { compiled: true });
      started.push(api);
      const worker = spawnService('worker', environment, { compiled: true });
      started.push(worker);
      await worker.waitForLog((line) => line['msg'] === 'worker started');
      const ack = await post(baseUrl, '/v1/start', { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const runId = (ack.body as { pipeline_run_id: string }).pipeline_run_id;
      const status = await pollUntil(
        async () => (await (await fetch(`${baseUrl}/v1/runs/${runId}/status`)).json()) as { state: string },
        (run) => run.state === 'COMPLETED' || run.state === 'FAILED',
        30000,
      );
      expect(status.state).to.equal('COMPLETED');
    });
  });
});
