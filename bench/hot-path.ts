/**
 * The hot path against the naive anchor (`npm run bench`; issue 33): the service in queue mode against what a team
 * writes in an afternoon from the design card (`bench/naive-runner.ts`: Express 5 `POST /start` → BullMQ → one worker
 * making one chat completion call, then POSTing an HMAC-signed callback itself). Each side is an API process and a
 * worker process on a private `redis-server` of its own (`bench/hot-path-sides.ts`); both call the same fake
 * OpenAI-compatible provider on 127.0.0.1 and call back the same receiver. Interleaved rounds (anchor, then service)
 * measure:
 *
 * 1. start acknowledgements per second, no worker running (autocannon, `BENCH_SECONDS` s, `BENCH_CONNECTIONS`
 *    connections, after a 1 s warm-up of each), target ≥ 0.60 of the anchor;
 * 2. start → callback received, one run at a time, p50, target ≤ 1.5 × the anchor's;
 * 3. a drain of 500 runs started while the run queue is paused, then resumed, on a provider answering after 200 ms,
 *    one worker process each of the service's default `WORKER_CONCURRENCY`: runs per second from the resume to the
 *    500th callback, target ≥ 0.90 of the anchor;
 * 4. Redis commands per completed run (the calls of `INFO commandstats`, reset before the phase, over runs started by
 *    10 clients at once, until 1 s after the last callback), target ≤ 2.5 × the anchor's; then `MONITOR` attributes
 *    the commands of a few more runs to their client commands and scripts;
 * 5. the service alone in direct mode: `/v1/execute` of a 10-step PipeSequence of PipeLLM steps on a provider
 *    answering after 100 ms, the median of a few runs, target ≤ 1.05 × 1,000 ms.
 *
 * Beside the figures: the segments of the start → callback runs, and the CPU time per run of each process.
 * Before them, each side completes a few thousand unmeasured runs, so that both are measured at their steady speed
 * (see {@link warmUp}). `BENCH_ROUNDS` (default 5) sets the rounds. Writes `bench/hot-path.md` (`bench/hot-path-report.ts`).
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { loadSettings } from '../shared/config/index.js';
import { type CallbackReceiver, startCallbackReceiver } from '../test/helpers/callback-receiver.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../test/helpers/fake-openai-server.js';
import { GREETING_BUNDLE } from '../test/helpers/greeting-bundle.js';
import { spawnApi } from '../test/helpers/processes.js';
import { quantile } from '../test/helpers/raw-http.js';
import { interleave, requestRate } from './comparison.js';
import {
  type CommandRound,
  type DirectRuns,
  directRow,
  type Figure,
  figureRow,
  type HotPathResults,
  type HotPathSetup,
  renderHotPath,
  type SideCpu,
  type TripSegments,
} from './hot-path-report.js';
import { type Side, type SideName, startAnchor, startService } from './hot-path-sides.js';
import { ensureProductionBuild } from './production-build.js';
import { attribute } from './redis-attribution.js';
import { postJson } from './service-client.js';

const SETUP: HotPathSetup = {
  rounds: Number(process.env['BENCH_ROUNDS'] ?? 5),
  warmUpRuns: 4000,
  directWarmUpRuns: 5,
  ackSeconds: Number(process.env['BENCH_SECONDS'] ?? 2),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 10),
  trips: 30,
  drainRuns: 500,
  drainLatencyMs: 200,
  workerConcurrency: loadSettings({}).worker.concurrency,
  countedRuns: 200,
  countingClients: 10,
  monitoredRuns: 50,
  settleMs: 1000,
  steps: 10,
  stepLatencyMs: 100,
};
/** Clients starting the runs of a drain. */
const DRAIN_CLIENTS = 25;
/** Measured direct-mode runs. */
const DIRECT_RUNS = 5;
const SECRET = 'hot-path-bench-secret';

/** What every phase uses: the fake provider, the callback receiver, the start body, both sides. */
interface Bench {
  fake: FakeOpenAiServer;
  receiver: CallbackReceiver;
  body: unknown;
  sides: { anchor: Side; subject: Side };
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

function answerAfter(fake: FakeOpenAiServer, delayMs: number): void {
  fake.respondWith(() => ({ ...completion('Hello, Ada.'), ...(delayMs > 0 ? { delayMs } : {}) }));
}

function delivered(receiver: CallbackReceiver): number {
  return receiver.received.filter((entry) => entry.answered === 200).length;
}

/** Start `count` runs from `clients` concurrent clients; resolves once each is acknowledged. */
async function startRuns(bench: Bench, side: Side, count: number, clients: number): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < count) {
      next += 1;
      await postJson(side.startUrl, bench.body);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
}

/** Start `count` runs from `clients` concurrent clients and wait for their callbacks. */
async function completeRuns(bench: Bench, side: Side, count: number, clients: number): Promise<void> {
  const before = delivered(bench.receiver);
  await startRuns(bench, side, count, clients);
  await bench.receiver.successes(before + count);
}

/** One run, start → callback: its time in ms and its segments. */
async function trip(bench: Bench, side: Side): Promise<{ ms: number; segments: TripSegments }> {
  const before = delivered(bench.receiver);
  const calls = bench.fake.requests.length;
  const started = performance.now();
  const sent = Date.now();
  await postJson(side.startUrl, bench.body);
  const acknowledged = Date.now();
  await bench.receiver.successes(before + 1);
  const ms = performance.now() - started;
  const received = Date.now();
  const call = bench.fake.requests[calls]!;
  return {
    ms,
    segments: {
      ackMs: acknowledged - sent,
      pickupMs: call.receivedAt - acknowledged,
      providerMs: call.answeredAt! - call.receivedAt,
      callbackMs: received - call.answeredAt!,
    },
  };
}

/**
 * Bring a side's two processes to their steady speed: {@link SETUP.warmUpRuns} runs from {@link DRAIN_CLIENTS}
 * clients, the provider answering at once. V8 optimizes a function only once it has run often enough, so a process
 * that does much different work per run (the service) needs thousands of runs to get there; its first 500 runs
 * drain at about half its steady rate.
 * @returns the runs per second of the warm-up, cold processes included
 */
async function warmUp(bench: Bench, side: Side): Promise<number> {
  const started = performance.now();
  await completeRuns(bench, side, SETUP.warmUpRuns, DRAIN_CLIENTS);
  return SETUP.warmUpRuns / ((performance.now() - started) / 1000);
}

async function tripFigure(bench: Bench, segments: Record<SideName, TripSegments[]>): Promise<Figure> {
  return {
    name: 'start → callback received, one run at a time, p50',
    unit: 'ms',
    target: { text: '≤ 1.5 ×', met: (ratio) => ratio <= 1.5 },
    pairs: await interleave(SETUP.rounds, async (which) => {
      const side = bench.sides[which];
      const times: number[] = [];
      for (let run = 0; run < SETUP.trips; run += 1) {
        const { ms, segments: each } = await trip(bench, side);
        times.push(ms);
        segments[side.name].push(each);
      }
      return quantile(times, 0.5);
    }),
  };
}

async function commandsFigure(
  bench: Bench,
  rounds: Record<SideName, CommandRound[]>,
  cpu: Record<SideName, SideCpu>,
): Promise<Figure> {
  const { countedRuns: runs, countingClients: clients } = SETUP;
  return {
    name: 'Redis commands per completed run, callback included',
    unit: 'cmd',
    target: { text: '≤ 2.5 ×', met: (ratio) => ratio <= 2.5 },
    pairs: await interleave(SETUP.rounds, async (which) => {
      const side = bench.sides[which];
      const cpuBefore = await side.redis.cpuMs();
      await side.redis.resetStats();
      await completeRuns(bench, side, runs, clients);
      await delay(SETUP.settleMs);
      const calls = await side.redis.commandCalls();
      cpu[side.name].redisPerRun.push(((await side.redis.cpuMs()) - cpuBefore) / runs);
      rounds[side.name].push({ calls, runs });
      return sum(calls.values()) / runs;
    }),
  };
}

async function drainFigure(bench: Bench, cpu: Record<SideName, SideCpu>): Promise<Figure> {
  const runs = SETUP.drainRuns;
  return {
    name: `drain of ${runs} runs, ${SETUP.drainLatencyMs} ms provider, one worker process`,
    unit: 'runs/s',
    target: { text: '≥ 0.90', met: (ratio) => ratio >= 0.9 },
    pairs: await interleave(SETUP.rounds, async (which) => {
      const side = bench.sides[which];
      await side.runQueue.pause();
      const before = delivered(bench.receiver);
      const cpuAtStart = side.cpuMs();
      await startRuns(bench, side, runs, DRAIN_CLIENTS);
      const started = performance.now();
      await side.runQueue.resume();
      await bench.receiver.successes(before + runs);
      const seconds = (performance.now() - started) / 1000;
      const cpuAtEnd = side.cpuMs();
      cpu[side.name].apiPerStart.push((cpuAtEnd.api - cpuAtStart.api) / runs);
      cpu[side.name].workerPerRun.push((cpuAtEnd.worker - cpuAtStart.worker) / runs);
      return runs / seconds;
    }),
  };
}

async function ackFigure(bench: Bench): Promise<Figure> {
  const load = (side: Side, seconds: number) => ({
    url: side.startUrl,
    method: 'POST' as const,
    body: bench.body,
    seconds,
    connections: SETUP.connections,
  });
  for (const side of Object.values(bench.sides)) await requestRate(load(side, 1));
  return {
    name: 'start acknowledgements, no worker running',
    unit: 'req/s',
    target: { text: '≥ 0.60', met: (ratio) => ratio >= 0.6 },
    pairs: await interleave(SETUP.rounds, (which) => requestRate(load(bench.sides[which], SETUP.ackSeconds))),
  };
}

/** Commands per second of a side with nothing to do, over {@link SETUP.settleMs}. */
async function idleRate(side: Side): Promise<number> {
  await side.redis.resetStats();
  await delay(SETUP.settleMs);
  return (sum((await side.redis.commandCalls()).values()) * 1000) / SETUP.settleMs;
}

/** A PipeSequence of `steps` PipeLLM steps, each reading the step before it. */
function sequenceBundle(steps: number): string {
  const lines = ['domain = "hot_path"', 'description = "A sequence of LLM steps"', 'main_pipe = "chain"', ''];
  const refs: string[] = [];
  for (let index = 0; index < steps; index += 1) {
    const input = index === 0 ? 'seed' : `text_${index - 1}`;
    refs.push(`  { pipe = "step_${index}", result = "text_${index}" },`);
    lines.push(
      `[pipe.step_${index}]`,
      'type = "PipeLLM"',
      `description = "Rewrite the text, step ${index}"`,
      `inputs = { ${input} = "Text" }`,
      'output = "Text"',
      `prompt = "Rewrite this text in other words: $${input}"`,
      '',
    );
  }
  lines.push('[pipe.chain]', 'type = "PipeSequence"', 'description = "Every step in order"');
  lines.push('inputs = { seed = "Text" }', 'output = "Text"', 'steps = [', ...refs, ']', '');
  return lines.join('\n');
}

/**
 * The direct-mode runs: a spawned API of the production build in the default (direct) mode; then, for reference, the
 * same number of calls made one after the other by a bare `fetch` loop of this process.
 */
async function directRuns(fake: FakeOpenAiServer): Promise<DirectRuns> {
  answerAfter(fake, SETUP.stepLatencyMs);
  const runs: DirectRuns = { wallMs: [], firstCallMs: [], betweenCallsMs: [], afterLastCallMs: [], loopMs: [] };
  const { api, baseUrl } = await spawnApi({ OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseUrl });
  try {
    const body = { mthds_contents: [sequenceBundle(SETUP.steps)], inputs: { seed: 'The quick brown fox.' } };
    for (let run = 0; run < SETUP.directWarmUpRuns + DIRECT_RUNS; run += 1) {
      const calls = fake.requests.length;
      const started = Date.now();
      await postJson(`${baseUrl}/v1/execute`, body);
      const finished = Date.now();
      if (run < SETUP.directWarmUpRuns) continue;
      const made = fake.requests.slice(calls);
      if (made.length !== SETUP.steps) throw new Error(`expected ${SETUP.steps} provider calls, saw ${made.length}`);
      runs.wallMs.push(finished - started);
      runs.firstCallMs.push(made[0]!.receivedAt - started);
      runs.afterLastCallMs.push(finished - made.at(-1)!.answeredAt!);
      const gaps = made.slice(1).map((request, index) => request.receivedAt - made[index]!.answeredAt!);
      runs.betweenCallsMs.push(sum(gaps) / gaps.length);
    }
  } finally {
    await api.stop('SIGKILL');
  }
  for (let run = 0; run < DIRECT_RUNS; run += 1) {
    const started = Date.now();
    for (let step = 0; step < SETUP.steps; step += 1) {
      const answer = await fetch(`${fake.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Step ${step}` }] }),
      });
      await answer.json();
    }
    runs.loopMs.push(Date.now() - started);
  }
  return runs;
}

/** Every figure against the anchor, and what explains them. */
type Measured = Omit<HotPathResults, 'setup' | 'direct'>;

async function againstTheAnchor(fake: FakeOpenAiServer, receiver: CallbackReceiver): Promise<Measured> {
  const options = { providerUrl: fake.baseUrl, callbackSecret: SECRET, workerConcurrency: SETUP.workerConcurrency };
  const anchor = await startAnchor(options);
  const service = await startService(options).catch(async (error: unknown) => {
    await anchor.close();
    throw error;
  });
  const bench: Bench = {
    fake,
    receiver,
    body: { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, callback_urls: [receiver.url] },
    sides: { anchor, subject: service },
  };
  const report = (figure: Figure) => {
    process.stdout.write(`${figureRow(figure)}\n`);
    return figure;
  };
  const noCpu = (): SideCpu => ({ apiPerStart: [], workerPerRun: [], redisPerRun: [] });
  const measured: Omit<Measured, 'ack' | 'trip' | 'drain' | 'commands'> = {
    segments: { anchor: [], service: [] },
    cpu: { anchor: noCpu(), service: noCpu() },
    commandRounds: { anchor: [], service: [] },
    attributed: { anchor: [], service: [] },
    idlePerSecond: { anchor: 0, service: 0 },
    warmUp: { anchor: 0, service: 0 },
  };
  try {
    await Promise.all([anchor.startWorker(), service.startWorker()]);
    answerAfter(fake, 0);
    for (const side of [anchor, service]) measured.warmUp[side.name] = await warmUp(bench, side);
    const trip = report(await tripFigure(bench, measured.segments));
    const commands = report(await commandsFigure(bench, measured.commandRounds, measured.cpu));
    for (const side of [anchor, service]) {
      const seen = await side.redis.monitor(async () => {
        await completeRuns(bench, side, SETUP.monitoredRuns, SETUP.countingClients);
        await delay(SETUP.settleMs);
      });
      measured.attributed[side.name] = attribute(seen);
      measured.idlePerSecond[side.name] = await idleRate(side);
    }
    answerAfter(fake, SETUP.drainLatencyMs);
    const drain = report(await drainFigure(bench, measured.cpu));
    await Promise.all([anchor.stopWorker(), service.stopWorker()]);
    const ack = report(await ackFigure(bench));
    return { ...measured, ack, trip, drain, commands };
  } finally {
    await Promise.all([anchor.close(), service.close()]);
  }
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const fake = await startFakeOpenAiServer();
  const receiver = await startCallbackReceiver();
  try {
    const measured = await againstTheAnchor(fake, receiver);
    const direct = await directRuns(fake);
    process.stdout.write(`${directRow(direct, SETUP)}\n`);
    writeFileSync(new URL('hot-path.md', import.meta.url), renderHotPath({ ...measured, setup: SETUP, direct }));
  } finally {
    await receiver.close();
    await fake.close();
  }
}

await main();
