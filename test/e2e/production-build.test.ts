import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { freePort, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The packages only the queue mode and outbound requests need (docs/architecture.md#startup). */
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

/** A concept with a structure: its mock output is checked against its JSON schema (ajv) in the API process. */
const STRUCTURED_BUNDLE = `domain = "build_check"
main_pipe = "summarise"

[concept.Summary]
description = "A short summary of a topic"

[concept.Summary.structure]
title = "The title"
points = { type = "list", item_type = "text", description = "Key points" }

[pipe.summarise]
type = "PipeLLM"
description = "Summarise a topic"
inputs = { topic = "Text" }
output = "Summary"
prompt = "Summarise $topic"
`;

/** GET a path: its status, content type and text. */
async function get(baseUrl: string, path: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
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
    expect(packages.has('piscina'), [...packages].join(', ')).to.equal(true);
    for (const name of LAZY_PACKAGES)
      expect(packages.has(name), `${name} in ${[...packages].join(', ')}`).to.equal(false);
  });

  it('should load the packages it bundles from the entry, not from node_modules', () => {
    for (const entry of ['dist/api/server.js', 'dist/worker/main.js']) {
      const packages = [...packagesLoadedAtStart(join(ROOT, entry))].sort();
      expect(packages, entry).to.deep.equal(
        entry === 'dist/api/server.js'
          ? ['pino', 'piscina', 'simple-git']
          : ['bullmq', 'ioredis', 'pino', 'piscina', 'simple-git'],
      );
    }
  });

  it('should serve validate and execute, a failed run naming its error type', async () => {
    const { api, baseUrl } = await spawnApi({});
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

  it('should serve every route family from the packages bundled into the entry (scripts/build.mjs)', async () => {
    const { api, baseUrl } = await spawnApi({});
    started.push(api);
    const structured = await post(baseUrl, '/v1/execute', {
      mthds_contents: [STRUCTURED_BUNDLE],
      inputs: { topic: 'tides' },
    });
    expect(structured.status, JSON.stringify(structured.body)).to.equal(200);
    const summary = (structured.body as { pipe_output: { working_memory: { root: Record<string, unknown> } } })
      .pipe_output.working_memory.root['main_stuff'] as { content: { title: string; points: string[] } };
    expect(summary.content.title).to.be.a('string');
    expect(summary.content.points).to.be.an('array');
    const metrics = await get(baseUrl, '/metrics');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.match(/^mthds_runs_started_total\{mode="direct",delivery="blocking"\} 1$/m);
    const openApi = await get(baseUrl, '/v1/openapi.json');
    expect(openApi.status).to.equal(200);
    expect(JSON.parse(openApi.text)).to.have.nested.property(
      'paths./v1/execute.post.operationId',
      'execute_v1_execute_post',
    );
    const docs = await get(baseUrl, '/docs');
    expect([docs.status, docs.type]).to.deep.equal([200, 'text/html; charset=utf-8']);
    // the console, built into dist/ with the rest (docs/console.md#serving), with its hashed assets
    const consolePage = await get(baseUrl, '/console/methods');
    expect([consolePage.status, consolePage.type]).to.deep.equal([200, 'text/html; charset=utf-8']);
    const script = /\/console\/assets\/[^"]+\.js/.exec(consolePage.text)?.[0];
    expect(script, consolePage.text).to.be.a('string');
    expect((await get(baseUrl, script!)).status).to.equal(200);
    const errorPage = await get(baseUrl, '/errors/validation-error/');
    expect([errorPage.status, errorPage.type]).to.deep.equal([200, 'text/html; charset=utf-8']);
    const formatted = await post(baseUrl, '/v1/format', { content: 'domain="a"\n' });
    expect(formatted.body).to.deep.equal({ formatted: 'domain = "a"\n', changed: true, diagnostics: [] });
    const refused = await fetch(`${baseUrl}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"mthds_contents": [',
    });
    expect([refused.status, refused.headers.get('content-type')]).to.deep.equal([422, 'application/problem+json']);
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
      const environment = { ...TEST_REDIS_ENVIRONMENT, QUEUE_PREFIX: prefix, SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR };
      const { api, baseUrl } = await spawnApi(environment);
      started.push(api);
      const healthPort = await freePort();
      const worker = spawnService('worker', { ...environment, WORKER_METRICS_PORT: String(healthPort) });
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
      const live = await fetch(`http://127.0.0.1:${healthPort}/live`);
      expect([live.status, await live.json()]).to.deep.equal([200, { live: true }]);
      const board = await get(baseUrl, '/admin/queues');
      expect([board.status, board.type]).to.deep.equal([200, 'text/html; charset=utf-8']);
      const queues = await get(baseUrl, '/admin/queues/api/queues');
      expect(queues.status, queues.text).to.equal(200);
      expect((JSON.parse(queues.text) as { queues: { name: string }[] }).queues.map((queue) => queue.name)).to.include(
        'runs',
      );
    });
  });
});
