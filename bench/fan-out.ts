/**
 * Fan-out across workers (`npm run bench`; docs/fan-out.md): a 40-item PipeBatch over a PipeLLM, each call answered by
 * a fake OpenAI-compatible server on 127.0.0.1 after 200 ms, run through a spawned API and two spawned workers on the
 * Redis of `TEST_REDIS_URL` (a unique prefix, deleted after). With `BATCH_MAX_PARALLEL=20` and
 * `WORKER_CHILD_CONCURRENCY=10` per worker, the ideal time is ⌈40 ÷ min(20, 2 × 10)⌉ × 200 ms = 400 ms; the target is
 * ≤ 1.3 × that (issue 17). Also measured: the same batch with `RUN_FAN_OUT=false` (items in the run's worker, same
 * cap).
 * Each run is timed from its result (`finished_at` − `created_at`) and by the client (the blocking `/v1/execute`). The
 * services run from the production build (`dist/`, as `npm start` runs them; refreshed first when stale).
 * Writes `bench/fan-out.md`.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { QUEUE_CONFIG_DIR } from '../test/helpers/config-dir.js';
import { CONTROLLERS_BUNDLE } from '../test/helpers/controllers-bundle.js';
import { completion, startFakeOpenAiServer } from '../test/helpers/fake-openai-server.js';
import { type ServiceProcess, spawnApi, spawnService } from '../test/helpers/processes.js';
import { quantile } from '../test/helpers/raw-http.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';
import { ensureProductionBuild } from './production-build.js';
import { postJson } from './service-client.js';

const ITEMS = 40;
const LATENCY_MS = 200;
const CAP = 20;
const CHILD_SLOTS = 10;
const WORKERS = 2;
const ROUNDS = Number(process.env['BENCH_FAN_OUT_ROUNDS'] ?? 9);
const WARM_UP = 2;
const IDEAL_MS = Math.ceil(ITEMS / Math.min(CAP, WORKERS * CHILD_SLOTS)) * LATENCY_MS;

interface Scenario {
  name: string;
  fanOut: boolean;
}

interface Measured {
  runMs: number[];
  clientMs: number[];
  /** Child jobs each worker completed, over every round. */
  perWorker: number[];
}

/** Run the scenario's batch `ROUNDS` times after `WARM_UP` runs (the first runs still compile and load lazily). */
async function measure(scenario: Scenario, providerUrl: string): Promise<Measured> {
  const prefix = uniquePrefix();
  const environment = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: providerUrl,
    RUN_FAN_OUT: String(scenario.fanOut),
    BATCH_MAX_PARALLEL: String(CAP),
    WORKER_CHILD_CONCURRENCY: String(CHILD_SLOTS),
  };
  const started: ServiceProcess[] = [];
  try {
    const { api, baseUrl } = await spawnApi(environment);
    started.push(api);
    const workers = Array.from({ length: WORKERS }, () => spawnService('worker', environment));
    started.push(...workers);
    for (const worker of workers) await worker.waitForLog((line) => line['msg'] === 'worker started');
    const words = Array.from({ length: ITEMS }, (_, index) => `word-${index}`);
    const body = { mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: 'batch_echo', inputs: { words } };
    const measured: Measured = { runMs: [], clientMs: [], perWorker: workers.map(() => 0) };
    for (let round = 0; round < WARM_UP + ROUNDS; round += 1) {
      const before = workers.map((worker) => worker.logs.filter((line) => line['msg'] === 'child:completed').length);
      const sent = performance.now();
      const result = await postJson(`${baseUrl}/v1/execute`, body);
      const clientMs = performance.now() - sent;
      if (round < WARM_UP) continue;
      measured.clientMs.push(clientMs);
      measured.runMs.push(Date.parse(String(result['finished_at'])) - Date.parse(String(result['created_at'])));
      for (const [index, worker] of workers.entries())
        measured.perWorker[index]! +=
          worker.logs.filter((line) => line['msg'] === 'child:completed').length - before[index]!;
    }
    return measured;
  } finally {
    await Promise.all(started.map((service) => service.stop('SIGKILL')));
    await deletePrefix(prefix).catch(() => undefined);
  }
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const fake = await startFakeOpenAiServer();
  fake.respondWith(() => ({ ...completion('echo'), delayMs: LATENCY_MS }));
  const rows: string[] = [];
  try {
    for (const scenario of [
      { name: `fan-out, ${WORKERS} workers × ${CHILD_SLOTS} child slots`, fanOut: true },
      { name: 'in-process (RUN_FAN_OUT=false)', fanOut: false },
    ]) {
      const measured = await measure(scenario, fake.baseUrl);
      const run = quantile(measured.runMs, 0.5);
      const client = quantile(measured.clientMs, 0.5);
      const workers = scenario.fanOut ? measured.perWorker.join(' / ') : '— (the run’s worker)';
      rows.push(
        `| ${scenario.name} | ${run.toFixed(0)} ms | ${(run / IDEAL_MS).toFixed(2)} | ${client.toFixed(0)} ms | ${workers} |`,
      );
    }
  } finally {
    await fake.close();
  }
  const table = [
    `# Fan-out across workers (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
    '',
    `A ${ITEMS}-item PipeBatch over a PipeLLM, each call answered after ${LATENCY_MS} ms by a fake provider on 127.0.0.1;`,
    `spawned API and ${WORKERS} spawned workers (the production build), BATCH_MAX_PARALLEL=${CAP}, WORKER_CHILD_CONCURRENCY=${CHILD_SLOTS}. Ideal`,
    `time for these caps: ${IDEAL_MS} ms; target ≤ 1.3 × ideal. Median of ${ROUNDS} runs after ${WARM_UP} warm-up runs; run time =`,
    `the result's finished_at − created_at, client time = the blocking /v1/execute. Load average of the host when done:`,
    `${loadavg()[0]!.toFixed(2)} (1 min), on ${availableParallelism()} cores: the processes share them with whatever else runs.`,
    '',
    '| scenario | run time | ÷ ideal | client time | child jobs per worker |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(table);
  writeFileSync(new URL('./fan-out.md', import.meta.url), table);
}

await main();
