/**
 * HTTP throughput benchmark (`npm run bench`): the API in this process on 127.0.0.1 (mock inference, direct mode),
 * loaded by autocannon, one scenario after another; writes a Markdown table to `bench/results.md`.
 * Each scenario is warmed by one request (lazy loads such as the formatter's WASM stay out of the figures), then runs
 * `BENCH_SECONDS` (default 5) with `BENCH_CONNECTIONS` (default 10) connections.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createApp } from '../api/app.js';
import { loadSettings } from '../shared/config/index.js';
import { selectInferenceBackend } from '../shared/inference/index.js';
import { createLogger } from '../shared/observability/index.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const SAMPLES = new URL('../../shared/corpus/pipelex-api-samples/', import.meta.url);
const sample = (name: string) => readFileSync(new URL(`${name}.mthds`, SAMPLES), 'utf8');

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const SCENARIOS: Scenario[] = [
  { name: 'GET /health', method: 'GET', path: '/health' },
  {
    name: 'POST /v1/validate hello_greeting (static + dry run)',
    method: 'POST',
    path: '/v1/validate',
    body: { mthds_contents: [sample('hello_greeting')] },
  },
  {
    name: 'POST /v1/validate fashion_moodboard (8 pipes dry-run)',
    method: 'POST',
    path: '/v1/validate',
    body: { mthds_contents: [sample('fashion_moodboard')] },
  },
  {
    name: 'POST /v1/execute hello_greeting (mock inference)',
    method: 'POST',
    path: '/v1/execute',
    body: { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } },
  },
  {
    name: 'POST /v1/resolve fashion_moodboard (crate + fingerprint)',
    method: 'POST',
    path: '/v1/resolve',
    body: { files: [{ content: sample('fashion_moodboard'), source: 'fashion_moodboard.mthds' }] },
  },
  {
    name: 'POST /v1/lint fashion_moodboard (syntax + schema)',
    method: 'POST',
    path: '/v1/lint',
    body: { content: sample('fashion_moodboard') },
  },
  {
    name: 'POST /v1/format fashion_moodboard (taplo)',
    method: 'POST',
    path: '/v1/format',
    body: { content: sample('fashion_moodboard') },
  },
  {
    name: 'POST /v1/codegen fashion_moodboard ts-zod',
    method: 'POST',
    path: '/v1/codegen',
    body: { files: [{ content: sample('fashion_moodboard') }], kind: 'types', target: 'ts-zod' },
  },
  {
    name: 'POST /v1/execute hello_greeting as a `files` bundle',
    method: 'POST',
    path: '/v1/execute',
    body: { files: { 'hello_greeting.mthds': sample('hello_greeting') }, inputs: { name: 'Ada' } },
  },
  {
    name: 'POST /v1/execute cv_job_match (structured, mock)',
    method: 'POST',
    path: '/v1/execute',
    body: { mthds_contents: [sample('cv_job_match')], inputs: { cv_text: 'CV', job_offer_text: 'Offer' } },
  },
];

async function main(): Promise<void> {
  const environment = { INFERENCE_PROFILE: 'mock', LOG_LEVEL: 'silent' };
  const settings = loadSettings(environment);
  const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  const app = createApp({ settings, logger: createLogger('silent', 'bench'), inference, modelDeck: inference.deck });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const rows: string[] = [];
  for (const scenario of SCENARIOS) {
    await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
      method: scenario.method,
      headers: { 'content-type': 'application/json' },
      ...(scenario.body === undefined ? {} : { body: JSON.stringify(scenario.body) }),
    });
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${scenario.path}`,
      method: scenario.method,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { 'content-type': 'application/json' },
      ...(scenario.body === undefined ? {} : { body: JSON.stringify(scenario.body) }),
    });
    const errors = result.errors + result.non2xx;
    rows.push(
      `| ${scenario.name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`,
    );
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  server.close();
  const table = [
    `# HTTP throughput (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per scenario)`,
    '',
    '| scenario | requests/s | p50 latency (ms) | p99 latency (ms) | errors |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(new URL('./results.md', import.meta.url), table);
}

void main();
