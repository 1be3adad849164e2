/**
 * Memory over many runs (`npm run bench`; issue #13): this process's RSS and heap once warm (after `WARM_RUNS` runs)
 * and after `BENCH_MEMORY_RUNS` (default 10,000) more runs of hello_greeting on mock inference, in direct mode
 * (`/v1/execute`) and in queue mode (`/v1/start` with the worker pool in this process, each run awaited until
 * COMPLETED).
 * Each reading is settled: the load stops, then a garbage collection runs every second (`--expose-gc`) for
 * `SETTLE_SECONDS`, so that V8 has returned the heap it grew for the load (its memory reducer works on an idle
 * isolate);
 * what is left is what the process retains. The peak RSS under load is reported beside it. Writes `bench/memory.md`.
 * Needs Redis and the corpus beside the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startQueueDeployment } from '../test/helpers/queue-app.js';
import { listen } from './anchors.js';
import { postJson, startDirectService, untilCompleted } from './service-client.js';

const RUNS = Number(process.env['BENCH_MEMORY_RUNS'] ?? 10_000);
/** Runs before the warm reading: enough for V8's committed heap to reach its working size under this load. */
const WARM_RUNS = 2000;
/** Requests in flight at once. */
const CONCURRENCY = 16;
const HELLO = {
  mthds_contents: [
    readFileSync(new URL('../../shared/corpus/pipelex-api-samples/hello_greeting.mthds', import.meta.url), 'utf8'),
  ],
  inputs: { name: 'Ada' },
};

interface Reading {
  rssMib: number;
  /** V8 heap committed (what the heap holds from the OS). */
  heapTotalMib: number;
  /** V8 heap in use after a collection. */
  heapMib: number;
}

/** Seconds of idle, with a garbage collection each second, before a reading. */
const SETTLE_SECONDS = 8;

/** A reading once the load stopped and the process settled for {@link SETTLE_SECONDS}. */
async function settledReading(): Promise<Reading> {
  for (let second = 0; second < SETTLE_SECONDS; second += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rssMib: usage.rss / 2 ** 20, heapTotalMib: usage.heapTotal / 2 ** 20, heapMib: usage.heapUsed / 2 ** 20 };
}

interface Measure {
  warm: Reading;
  after: Reading;
  /** The highest RSS sampled while the runs were going, in MiB. */
  peakMib: number;
}

/** Run `WARM_RUNS` then `RUNS` runs through `one`, `CONCURRENCY` at a time; a settled reading after each. */
async function measure(one: () => Promise<void>): Promise<Measure> {
  let peakMib = 0;
  const sampler = setInterval(() => {
    peakMib = Math.max(peakMib, process.memoryUsage.rss() / 2 ** 20);
  }, 100);
  const drive = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          next += 1;
          await one();
        }
      }),
    );
  };
  await drive(WARM_RUNS);
  const warm = await settledReading();
  await drive(RUNS);
  clearInterval(sampler);
  return { warm, after: await settledReading(), peakMib };
}

function row(mode: string, { warm, after, peakMib }: Measure): string {
  const growth = ((after.rssMib / warm.rssMib - 1) * 100).toFixed(1);
  const mib = (value: number) => value.toFixed(0);
  return `| ${mode} | ${mib(warm.rssMib)} | ${mib(after.rssMib)} | ${growth} % | ${mib(warm.heapTotalMib)} → ${mib(after.heapTotalMib)} | ${mib(warm.heapMib)} → ${mib(after.heapMib)} | ${mib(peakMib)} |`;
}

async function main(): Promise<void> {
  const direct = await startDirectService();
  const rows = [
    row(
      'direct (/v1/execute)',
      await measure(async () => {
        await postJson(`${direct.url}/v1/execute`, HELLO);
      }),
    ),
  ];
  await direct.close();
  process.stdout.write(`${rows.at(-1)}\n`);
  const deployment = startQueueDeployment();
  const queued = await listen(deployment.app.listen(0, '127.0.0.1'));
  rows.push(
    row(
      'queue (/v1/start → COMPLETED, workers in process)',
      await measure(async () => {
        await untilCompleted(
          queued.url,
          String((await postJson(`${queued.url}/v1/start`, HELLO))['pipeline_run_id']),
          5,
        );
      }),
    ),
  );
  process.stdout.write(`${rows.at(-1)}\n`);
  await queued.close();
  await deployment.close();
  writeFileSync(
    new URL('./memory.md', import.meta.url),
    [
      `# Memory over ${RUNS} runs (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      '',
      `One process, hello_greeting on mock inference, ${CONCURRENCY} requests in flight; readings after a garbage`,
      `collection, once warm (${WARM_RUNS} runs) and after ${RUNS} more. Target: RSS growth ≤ 10 %. Each reading is`,
      `settled (${SETTLE_SECONDS} s idle with a collection every second): under load V8 grows its committed heap for the`,
      'allocation rate and returns it once idle, so the settled figure is what the process retains (a leak would stay);',
      'the peak RSS under load is beside it.',
      '',
      '| mode | RSS warm (MiB) | RSS after (MiB) | growth | V8 heap committed (MiB) | V8 heap used (MiB) | peak RSS under load (MiB) |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
