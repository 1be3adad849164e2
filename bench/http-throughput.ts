/**
 * The service against its anchors (`npm run bench`; issue #13): every scenario interleaved with its anchor for
 * `BENCH_ROUNDS` rounds (default 3) in this process on 127.0.0.1, mock inference; writes `bench/results.md`.
 *
 * - HTTP routes against **E** (bare Express 5 echoing the same body), `BENCH_SECONDS` (default 3) per measure with
 *   `BENCH_CONNECTIONS` (default 10) connections, each route warmed first.
 * - `/v1/start` acknowledgements against **Q** (raw BullMQ `queue.add`, same concurrency, same payload).
 * - start → COMPLETED, one run at a time, against Q's add → no-op worker → completed (ratio of the p50s).
 * - One worker draining 500 queued runs with 200 ms simulated inference, against a raw BullMQ worker of the same
 *   concurrency whose jobs only wait 200 ms (the ideal is min(500, `WORKER_CONCURRENCY`) / 0.2 s).
 *
 * Needs Redis (`TEST_REDIS_URL`, default `redis://127.0.0.1:6379`) and the corpus beside the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { QueueEvents } from 'bullmq';
import { selectInferenceBackend } from '../shared/inference/index.js';
import { createLogger, Metrics } from '../shared/observability/index.js';
import { RUN_QUEUE, startWorkerPool } from '../shared/orchestration/queued.js';
import { chainBundle } from '../test/helpers/large-bundles.js';
import { type QueueDeployment, startQueueDeployment } from '../test/helpers/queue-app.js';
import { quantile } from '../test/helpers/raw-http.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';
import { completions, type ListeningServer, listen, openRawQueueAnchor, startEchoAnchor } from './anchors.js';
import { type Comparison, comparisonRow, interleave, requestRate } from './comparison.js';
import { postJson, startDirectService, untilCompleted } from './service-client.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
/** Sequential runs per round of the start → COMPLETED scenario. */
const TRIPS = 50;
/** Runs in flight and simulated inference latency of the worker-concurrency scenario. */
const IN_FLIGHT = 500;
const INFERENCE_MS = 200;

const SAMPLES = new URL('../../shared/corpus/pipelex-api-samples/', import.meta.url);
const sample = (name: string) => readFileSync(new URL(`${name}.mthds`, SAMPLES), 'utf8');
const HELLO = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } };

interface RouteScenario {
  name: string;
  target: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Makes the body of the `n`th request, when every request must differ. */
  freshBody?: (n: number) => unknown;
}

const ROUTES: RouteScenario[] = [
  { name: 'GET /health', target: '—', method: 'GET', path: '/health' },
  {
    name: '/v1/validate 10 generated pipes',
    target: '≥ 0.30',
    method: 'POST',
    path: '/v1/validate',
    body: { mthds_contents: [chainBundle(10)] },
  },
  {
    name: '/v1/validate 10 generated pipes, a new bundle every request (computed, no cached answer)',
    target: '—',
    method: 'POST',
    path: '/v1/validate',
    freshBody: (n) => ({ mthds_contents: [chainBundle(10, `load_chain_${n < 0 ? 'warm' : n}`)] }),
  },
  { name: '/v1/execute hello_greeting', target: '≥ 0.50', method: 'POST', path: '/v1/execute', body: HELLO },
  {
    name: '/v1/format fashion_moodboard',
    target: '≥ 0.20',
    method: 'POST',
    path: '/v1/format',
    body: { content: sample('fashion_moodboard') },
  },
];

async function routeComparisons(echo: ListeningServer): Promise<Comparison[]> {
  const service = await startDirectService();
  const comparisons: Comparison[] = [];
  for (const route of ROUTES) {
    const load = (base: string) => ({
      url: `${base}${route.path}`,
      method: route.method,
      body: route.body,
      ...(route.freshBody ? { freshBody: route.freshBody } : {}),
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
    const warmBody = route.freshBody ? route.freshBody(-1) : route.body;
    if (warmBody !== undefined) await postJson(`${service.url}${route.path}`, warmBody);
    const pairs = await interleave(ROUNDS, (side) => requestRate(load(side === 'anchor' ? echo.url : service.url)));
    comparisons.push({ name: `${route.name} vs E`, unit: 'req/s', target: route.target, pairs });
    process.stdout.write(`${comparisonRow(comparisons.at(-1)!)}\n`);
  }
  await service.close();
  return comparisons;
}

async function withDeployment<T>(deployment: QueueDeployment, work: (base: string) => Promise<T>): Promise<T> {
  const service = await listen(deployment.app.listen(0, '127.0.0.1'));
  try {
    return await work(service.url);
  } finally {
    await service.close();
    await deployment.close();
  }
}

async function queueComparisons(): Promise<Comparison[]> {
  const prefix = uniquePrefix();
  const raw = await openRawQueueAnchor(TEST_REDIS_URL, `${prefix}:anchor`);
  try {
    const ack = await withDeployment(startQueueDeployment({ workers: false }), async (base) => {
      await postJson(`${base}/v1/start`, HELLO);
      return interleave(ROUNDS, (side) =>
        side === 'anchor'
          ? raw.addRate(SECONDS, CONNECTIONS, HELLO)
          : requestRate({
              url: `${base}/v1/start`,
              method: 'POST',
              body: HELLO,
              seconds: SECONDS,
              connections: CONNECTIONS,
            }),
      );
    });
    const ackComparison = { name: '/v1/start ack vs Q add', unit: 'req/s', target: '≥ 0.50', pairs: ack };
    process.stdout.write(`${comparisonRow(ackComparison)}\n`);
    const trips = await withDeployment(startQueueDeployment(), async (base) => {
      await untilCompleted(base, String((await postJson(`${base}/v1/start`, HELLO))['pipeline_run_id']), 1);
      return interleave(ROUNDS, async (side) => {
        const times: number[] = [];
        if (side === 'anchor') times.push(...(await raw.roundTrips(TRIPS, HELLO)));
        else
          for (let trip = 0; trip < TRIPS; trip += 1) {
            const started = performance.now();
            await untilCompleted(base, String((await postJson(`${base}/v1/start`, HELLO))['pipeline_run_id']), 1);
            times.push(performance.now() - started);
          }
        return 1000 / quantile(times, 0.5);
      });
    });
    const tripComparison = {
      name: 'start → COMPLETED p50 vs Q add → completed (1/p50)',
      unit: '/s',
      target: '≥ 0.50',
      pairs: trips,
    };
    process.stdout.write(`${comparisonRow(tripComparison)}\n`);
    return [ackComparison, tripComparison];
  } finally {
    await raw.close();
    await deletePrefix(prefix);
  }
}

/**
 * One worker process's drain rate: `IN_FLIGHT` runs are started over HTTP with no worker running, then a worker pool
 * starts in this process (the API idle beside it) and the time runs from its start to the last completion; the
 * anchor is a raw BullMQ worker of the same concurrency whose jobs only wait `INFERENCE_MS`.
 */
async function workerConcurrency(): Promise<Comparison> {
  const environment = { MOCK_INFERENCE_LATENCY_MS: String(INFERENCE_MS) };
  const deployment = startQueueDeployment({ workers: false, environment });
  const { settings } = deployment;
  const prefix = uniquePrefix();
  const raw = await openRawQueueAnchor(TEST_REDIS_URL, `${prefix}:anchor`);
  const events = new QueueEvents(RUN_QUEUE, {
    connection: { url: TEST_REDIS_URL },
    prefix: `${settings.queue.prefix}:bull`,
  });
  await events.waitUntilReady();
  try {
    const pairs = await withDeployment(deployment, (base) =>
      interleave(ROUNDS, async (side) => {
        if (side === 'anchor') return raw.drainRate(IN_FLIGHT, settings.worker.concurrency, INFERENCE_MS, HELLO);
        for (let started = 0; started < IN_FLIGHT; started += CONNECTIONS)
          await Promise.all(Array.from({ length: CONNECTIONS }, () => postJson(`${base}/v1/start`, HELLO)));
        const drained = completions(events, IN_FLIGHT);
        const started = performance.now();
        const pool = startWorkerPool({
          settings,
          logger: createLogger('silent', 'bench'),
          metrics: new Metrics(),
          inference: selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment),
          readSecret: () => undefined,
        });
        await drained;
        const seconds = (performance.now() - started) / 1000;
        await pool.close();
        return IN_FLIGHT / seconds;
      }),
    );
    const comparison = {
      name: `one worker draining ${IN_FLIGHT} runs, ${INFERENCE_MS} ms inference, vs raw BullMQ worker (same concurrency, same wait)`,
      unit: 'runs/s',
      target: '≥ 0.90',
      pairs,
    };
    process.stdout.write(`${comparisonRow(comparison)}\n`);
    return comparison;
  } finally {
    await events.close();
    await raw.close();
    await deletePrefix(prefix);
  }
}

async function main(): Promise<void> {
  const echo = await startEchoAnchor();
  const comparisons = [...(await routeComparisons(echo)), ...(await queueComparisons()), await workerConcurrency()];
  await echo.close();
  const table = [
    `# The service against its anchors (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
    '',
    `Median over ${ROUNDS} interleaved rounds; HTTP loads ${SECONDS} s with ${CONNECTIONS} connections. E: bare Express 5`,
    'echoing the same body; Q: raw BullMQ on the same Redis. Ratio = service / anchor (higher is better), spread min–max.',
    '',
    '| scenario | service | anchor | ratio (spread) | target |',
    '|---|---|---|---|---|',
    ...comparisons.map(comparisonRow),
    '',
  ].join('\n');
  writeFileSync(new URL('./results.md', import.meta.url), table);
}

await main();
