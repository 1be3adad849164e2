/**
 * The hostile requests of the hardening campaign (issue 29) against the production build (`npm run bench`;
 * docs/isolation.md, docs/limits.md): each request is sent to a spawned `node dist/api/server.js` — direct mode, then
 * queue mode with its in-process worker on the Redis of `TEST_REDIS_URL` under a unique prefix — while a prober asks
 * `GET /health` every 50 ms. For each request: its status and `error_type`, the ms to its answer, the answer's size,
 * `/health` p99 and max over the probes sent while it was in flight, and whether the process was still up after it (a
 * process that died is started again for the next request). Writes `bench/hardening.md`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { QUEUE_CONFIG_DIR } from '../test/helpers/config-dir.js';
import { type ServiceProcess, spawnApi } from '../test/helpers/processes.js';
import { quantile } from '../test/helpers/raw-http.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';
import { ensureProductionBuild } from './production-build.js';

/** Milliseconds between two `/health` probes. */
const PROBE_INTERVAL_MS = 50;
/** Longest wait for one `/health` probe or one request, in ms. */
const PROBE_TIMEOUT_MS = 5000;
const REQUEST_TIMEOUT_MS = 120_000;

type Mode = 'direct' | 'queue';

interface Attack {
  finding: string;
  name: string;
  mode: Mode;
  path: string;
  body: () => Buffer;
}

interface Outcome {
  attack: Attack;
  answer: string;
  ms: number;
  bytes: number;
  probes: number[];
  up: boolean;
}

/** The sample bundle of the README with its output concept replaced. */
function greeting(output: string): string {
  return [
    'domain = "hello_greeting"',
    'main_pipe = "write_greeting"',
    '',
    '[pipe.write_greeting]',
    'type = "PipeLLM"',
    'description = "d"',
    'inputs = { name = "Text" }',
    `output = "${output}"`,
    'prompt = "Hi $name."',
    '',
  ].join('\n');
}

/** Concepts C1 … C`depth`, each but the last with a field of the next; a pipe outputs C1. */
function conceptChain(depth: number): string {
  const lines = ['domain = "chain"', 'main_pipe = "make"', ''];
  for (let level = 1; level <= depth; level += 1) {
    lines.push(`[concept.C${level}]`, `description = "c${level}"`, `[concept.C${level}.structure]`);
    lines.push(
      level < depth
        ? `next = { type = "concept", concept_ref = "C${level + 1}", description = "n" }`
        : 'leaf = { type = "text", description = "l" }',
      '',
    );
  }
  lines.push('[pipe.make]', 'type = "PipeLLM"', 'description = "d"', 'inputs = { name = "Text" }');
  lines.push('output = "C1"', 'prompt = "Hi $name."', '');
  return lines.join('\n');
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A run body of the greeting whose `inputs` JSON text is `inputsText` (built as text, never as a value). */
function runBodyWithInputs(inputsText: string): Buffer {
  return Buffer.from(`{"mthds_contents":${JSON.stringify([greeting('Text')])},"inputs":${inputsText}}`);
}

/** `{"name":"Ada","extra":["a","a",…]}` of about `mib` MiB: an undeclared array of one-letter strings. */
function manyStrings(mib: number): Buffer {
  const count = Math.floor((mib * 1024 ** 2) / 4);
  return runBodyWithInputs(`{"name":"Ada","extra":[${'"a",'.repeat(count - 1)}"a"]}`);
}

/** `{"name":"Ada","extra":{"k0":0,…}}` with `count` keys. */
function manyKeys(count: number): Buffer {
  const keys = Array.from({ length: count }, (_, index) => `"k${index}":0`);
  return runBodyWithInputs(`{"name":"Ada","extra":{${keys.join(',')}}}`);
}

const validate = (output: string) => () => json({ mthds_contents: [greeting(output)] });
const runner = (output: string) => () => json({ mthds_contents: [greeting(output)], pipe_code: 'write_greeting' });
const execute =
  (output: string, extra: Record<string, unknown> = {}) =>
  () =>
    json({ mthds_contents: [greeting(output)], inputs: { name: 'Ada' }, ...extra });

const ATTACKS: Attack[] = [
  {
    finding: '1',
    name: 'validate Text[999999999]',
    mode: 'direct',
    path: '/v1/validate',
    body: validate('Text[999999999]'),
  },
  {
    finding: '1',
    name: 'build/runner Text[999999999]',
    mode: 'direct',
    path: '/v1/build/runner',
    body: runner('Text[999999999]'),
  },
  {
    finding: '1',
    name: 'validate Text[10000000]',
    mode: 'direct',
    path: '/v1/validate',
    body: validate('Text[10000000]'),
  },
  {
    finding: '1',
    name: 'validate Text[1000000]',
    mode: 'direct',
    path: '/v1/validate',
    body: validate('Text[1000000]'),
  },
  { finding: '3', name: 'execute Text[1000000]', mode: 'direct', path: '/v1/execute', body: execute('Text[1000000]') },
  {
    finding: '3',
    name: 'execute output_multiplicity 1e6',
    mode: 'direct',
    path: '/v1/execute',
    body: execute('Text', { output_multiplicity: 1_000_000 }),
  },
  {
    finding: '3',
    name: 'execute output_multiplicity 999999999',
    mode: 'direct',
    path: '/v1/execute',
    body: execute('Text', { output_multiplicity: 999_999_999 }),
  },
  {
    finding: '3',
    name: 'execute output_multiplicity 2^32',
    mode: 'direct',
    path: '/v1/execute',
    body: execute('Text', { output_multiplicity: 2 ** 32 }),
  },
  {
    finding: '4',
    name: 'execute, 90 MiB of one-letter strings',
    mode: 'direct',
    path: '/v1/execute',
    body: () => manyStrings(90),
  },
  {
    finding: '4',
    name: 'execute, 30 MiB of one-letter strings',
    mode: 'direct',
    path: '/v1/execute',
    body: () => manyStrings(30),
  },
  {
    finding: '4',
    name: 'execute, object of 6.4 M keys',
    mode: 'direct',
    path: '/v1/execute',
    body: () => manyKeys(6_400_000),
  },
  {
    finding: '4',
    name: 'start, 90 MiB of one-letter strings',
    mode: 'queue',
    path: '/v1/start',
    body: () => manyStrings(90),
  },
  {
    finding: '6',
    name: 'execute, lone surrogate in an input',
    mode: 'direct',
    path: '/v1/execute',
    body: () => runBodyWithInputs('{"name":"Ada \\ud800"}'),
  },
  {
    finding: '6',
    name: 'execute, lone surrogate in an input (queue)',
    mode: 'queue',
    path: '/v1/execute',
    body: () => runBodyWithInputs('{"name":"Ada \\ud800"}'),
  },
  {
    finding: '6',
    name: 'start, lone surrogate in an input',
    mode: 'queue',
    path: '/v1/start',
    body: () => runBodyWithInputs('{"name":"Ada \\udfff"}'),
  },
  {
    finding: '6',
    name: 'start, lone surrogate in pipeline_run_id',
    mode: 'queue',
    path: '/v1/start',
    body: () =>
      Buffer.from(
        `{"pipeline_run_id":"run-\\ud800","mthds_contents":${JSON.stringify([greeting('Text')])},"inputs":{"name":"Ada"}}`,
      ),
  },
  {
    finding: '7',
    name: 'validate, concept chain of 300',
    mode: 'direct',
    path: '/v1/validate',
    body: () => json({ mthds_contents: [conceptChain(300)] }),
  },
  {
    finding: '7',
    name: 'execute, concept chain of 300',
    mode: 'direct',
    path: '/v1/execute',
    body: () => json({ mthds_contents: [conceptChain(300)], inputs: { name: 'Ada' } }),
  },
];

/**
 * Probes `/health` every {@link PROBE_INTERVAL_MS} until stopped, from a thread of its own so that building and sending
 * a large body in this thread never delays a probe; a probe that fails counts as its timeout.
 */
const PROBER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
let running = true;
parentPort.once('message', () => { running = false; });
(async () => {
  while (running) {
    const started = performance.now();
    const ok = await fetch(workerData.url, { signal: AbortSignal.timeout(workerData.timeoutMs) }).then(
      async (answer) => { await answer.arrayBuffer(); return answer.status === 200; },
      () => false,
    );
    latencies.push(ok ? performance.now() - started : workerData.timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
  }
  parentPort.postMessage(latencies);
})();
`;

class HealthProber {
  private readonly thread: Worker;
  private readonly latencies: Promise<number[]>;

  constructor(baseUrl: string) {
    this.thread = new Worker(PROBER_SOURCE, {
      eval: true,
      workerData: { url: `${baseUrl}/health`, timeoutMs: PROBE_TIMEOUT_MS, intervalMs: PROBE_INTERVAL_MS },
    });
    this.latencies = new Promise((resolve) => this.thread.once('message', resolve));
  }

  /** Stop probing; the latency of every probe sent, in ms. */
  async stop(): Promise<number[]> {
    this.thread.postMessage('stop');
    const latencies = await this.latencies;
    await this.thread.terminate();
    return latencies;
  }
}

async function startApi(mode: Mode, prefix: string): Promise<{ api: ServiceProcess; baseUrl: string }> {
  const environment: Record<string, string> = { AUTH_MODE: 'none' };
  if (mode === 'queue')
    Object.assign(environment, {
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
    });
  return spawnApi(environment, { inProcessWorker: mode === 'queue' });
}

/** ` is_valid: false` for a verdict (`/v1/validate`), else nothing. */
function verdictOf(text: string): string {
  const answer = JSON.parse(text) as { is_valid?: unknown };
  return typeof answer.is_valid === 'boolean' ? ` is_valid: ${answer.is_valid}` : '';
}

async function send(baseUrl: string, path: string, body: Buffer): Promise<Omit<Outcome, 'attack' | 'probes' | 'up'>> {
  const started = performance.now();
  try {
    const answer = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await answer.text();
    const ms = performance.now() - started;
    const errorType =
      answer.status >= 400 ? ` ${String((JSON.parse(text) as { error_type?: unknown }).error_type)}` : verdictOf(text);
    return { answer: `${answer.status}${errorType}`, ms, bytes: Buffer.byteLength(text) };
  } catch (error) {
    return { answer: `no answer (${(error as Error).name})`, ms: performance.now() - started, bytes: 0 };
  }
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const prefix = uniquePrefix();
  const outcomes: Outcome[] = [];
  try {
    for (const mode of ['direct', 'queue'] as const) {
      let service = await startApi(mode, prefix);
      for (const attack of ATTACKS.filter((candidate) => candidate.mode === mode)) {
        const body = attack.body();
        const prober = new HealthProber(service.baseUrl);
        const sent = await send(service.baseUrl, attack.path, body);
        const probes = await prober.stop();
        const up = service.api.child.exitCode === null && service.api.child.signalCode === null;
        outcomes.push({ attack, ...sent, probes, up });
        process.stdout.write(`${attack.name}: ${sent.answer} in ${sent.ms.toFixed(0)} ms, up ${up}\n`);
        if (!up) service = await startApi(mode, prefix);
      }
      await service.api.stop();
    }
  } finally {
    await deletePrefix(prefix);
  }
  const figure = (value: number) => value.toFixed(0);
  const rows = outcomes.map(({ attack, answer, ms, bytes, probes, up }) => {
    const p99 = probes.length > 0 ? figure(quantile(probes, 0.99)) : '—';
    const max = probes.length > 0 ? figure(Math.max(...probes)) : '—';
    return `| ${attack.finding} | ${attack.mode} | \`${attack.path}\` ${attack.name} | ${answer} | ${figure(ms)} | ${bytes} | ${probes.length} | ${p99} | ${max} | ${up ? 'yes' : '**died**'} |`;
  });
  const table = [
    `# Hostile requests against the production build (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)})`,
    '',
    `\`/health\` probed every ${PROBE_INTERVAL_MS} ms, from a thread of the bench's own, while each request was in flight (its body built before); a probe without an answer within ${PROBE_TIMEOUT_MS} ms counts as ${PROBE_TIMEOUT_MS} ms.`,
    '',
    '| finding | mode | request | answer | ms | bytes | probes | /health p99 (ms) | /health max (ms) | process up after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(new URL('./hardening.md', import.meta.url), table);
  process.stdout.write(`${table}\n`);
}

await main();
