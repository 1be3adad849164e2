/**
 * The report of `bench/hot-path.ts` (`bench/hot-path.md`): the five figures against their targets, then what explains
 * them — where a run's time goes, the CPU each process spends per run, and the Redis commands per run by command and
 * by client command or script.
 */
import { availableParallelism, loadavg } from 'node:os';
import { median, type Pair } from './comparison.js';
import type { SideName } from './hot-path-sides.js';
import type { CommandCalls } from './private-redis.js';
import type { Attributed } from './redis-attribution.js';

/** One figure: each round's value of both sides (`subject` is the service), and its target on service ÷ anchor. */
export interface Figure {
  name: string;
  /** What a value counts, e.g. `req/s`. */
  unit: string;
  target: { text: string; met(ratio: number): boolean };
  pairs: Pair[];
}

/** Where one run's start → callback went, in ms (epoch-ms clocks: 1 ms resolution). */
export interface TripSegments {
  /** The `POST` of the start until its acknowledgement. */
  ackMs: number;
  /** The acknowledgement until the provider received the run's call. */
  pickupMs: number;
  /** The provider's own time. */
  providerMs: number;
  /** The provider's answer until the callback was received. */
  callbackMs: number;
}

/** The commands of one round of one side. */
export interface CommandRound {
  calls: CommandCalls;
  runs: number;
}

/** CPU time per run of each process of a side, in ms, one value per round. */
export interface SideCpu {
  /** The API process, per run started (the starts of the drain). */
  apiPerStart: number[];
  /** The worker process, per run drained. */
  workerPerRun: number[];
  /** The side's Redis, per run of the commands phase. */
  redisPerRun: number[];
}

/** The direct-mode runs, in ms each. */
export interface DirectRuns {
  wallMs: number[];
  /** The request until the first provider call. */
  firstCallMs: number[];
  /** One call's answer until the next call, averaged over the run. */
  betweenCallsMs: number[];
  /** The last answer until the response. */
  afterLastCallMs: number[];
  /** The same calls, one after the other, by a bare `fetch` loop of the benchmark's process. */
  loopMs: number[];
}

/** How the benchmark ran. */
export interface HotPathSetup {
  rounds: number;
  /** Unmeasured runs of each side before the first round. */
  warmUpRuns: number;
  /** Unmeasured runs of the direct mode before its measured ones. */
  directWarmUpRuns: number;
  ackSeconds: number;
  connections: number;
  trips: number;
  drainRuns: number;
  drainLatencyMs: number;
  workerConcurrency: number;
  countedRuns: number;
  countingClients: number;
  monitoredRuns: number;
  settleMs: number;
  steps: number;
  stepLatencyMs: number;
}

/** Everything the report shows. */
export interface HotPathResults {
  setup: HotPathSetup;
  ack: Figure;
  trip: Figure;
  drain: Figure;
  commands: Figure;
  segments: Record<SideName, TripSegments[]>;
  cpu: Record<SideName, SideCpu>;
  commandRounds: Record<SideName, CommandRound[]>;
  attributed: Record<SideName, Attributed[]>;
  /** Commands per second of each side with nothing to do. */
  idlePerSecond: Record<SideName, number>;
  /** Runs per second of each side's warm-up, from cold processes. */
  warmUp: Record<SideName, number>;
  direct: DirectRuns;
}

const SCRIPT_CALLS = ['evalsha', 'eval', 'fcall'];

function ratios(figure: Figure): number[] {
  return figure.pairs.map(({ subject, anchor }) => subject / anchor);
}

const decimals = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
/** A count per run to two decimals, `< 0.01` for the rare commands (a lease renewed every few seconds). */
const perRun = (count: number, runs: number) => (count / runs < 0.005 ? '< 0.01' : (count / runs).toFixed(2));

/**
 * A Markdown row: both sides' medians, the median of service ÷ anchor with its spread, the target, whether met.
 * @param figure - a measured figure
 */
export function figureRow(figure: Figure): string {
  const value = (values: number[]) => `${decimals(median(values))} ${figure.unit}`;
  const each = ratios(figure);
  const ratio = median(each);
  return `| ${figure.name} | ${value(figure.pairs.map((pair) => pair.subject))} | ${value(figure.pairs.map((pair) => pair.anchor))} | ${ratio.toFixed(2)} (${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)}) | ${figure.target.text} | ${figure.target.met(ratio) ? 'met' : 'not met'} |`;
}

/**
 * The Markdown row of the direct-mode figure.
 * @param direct - the runs
 * @param setup - steps and the provider's latency
 */
export function directRow(direct: DirectRuns, setup: HotPathSetup): string {
  const idealMs = setup.steps * setup.stepLatencyMs;
  const wall = median(direct.wallMs);
  return `| /v1/execute, ${setup.steps}-step PipeSequence of PipeLLM, ${setup.stepLatencyMs} ms provider, direct mode | ${wall.toFixed(0)} ms (${Math.min(...direct.wallMs)}–${Math.max(...direct.wallMs)}) | ${idealMs} ms | ${(wall / idealMs).toFixed(3)} | ≤ 1.05 | ${wall / idealMs <= 1.05 ? 'met' : 'not met'} |`;
}

function byCommand(rounds: CommandRound[]): string[] {
  const calls: CommandCalls = new Map();
  let runs = 0;
  for (const round of rounds) {
    runs += round.runs;
    for (const [name, count] of round.calls) calls.set(name, (calls.get(name) ?? 0) + count);
  }
  const rows = [...calls].sort(([, a], [, b]) => b - a);
  const line = ([name, count]: [string, number]) => `| ${name} | ${perRun(count, runs)} |`;
  const total = [...calls.values()].reduce((sum, count) => sum + count, 0);
  return [
    '| command | calls per run |',
    '|---|---|',
    ...rows.filter(([name]) => SCRIPT_CALLS.includes(name)).map(line),
    ...rows.filter(([name]) => !SCRIPT_CALLS.includes(name)).map(line),
    `| **total** | **${(total / runs).toFixed(2)}** |`,
  ];
}

function byClientCommand(entries: Attributed[], runs: number): string[] {
  const per = (count: number) => perRun(count, runs);
  const sum = (pick: (entry: Attributed) => number) => entries.reduce((total, entry) => total + pick(entry), 0);
  return [
    '| client command or script | calls per run | commands inside, per run |',
    '|---|---|---|',
    ...entries.map((entry) => `| ${entry.name} | ${per(entry.calls)} | ${entry.inside > 0 ? per(entry.inside) : ''} |`),
    `| **total** | **${per(sum((entry) => entry.calls))}** | **${per(sum((entry) => entry.inside))}** |`,
  ];
}

function timeRows(results: HotPathResults): string[] {
  const segment = (label: string, pick: (segments: TripSegments) => number) => {
    const of = (side: SideName) => {
      const values = results.segments[side].map(pick);
      return `${(values.reduce((total, value) => total + value, 0) / values.length).toFixed(1)} ms`;
    };
    return `| ${label} | ${of('service')} | ${of('anchor')} |`;
  };
  const cpu = (label: string, pick: (cpu: SideCpu) => number[], unit: string, scale: number) => {
    const of = (side: SideName) => `${decimals(median(pick(results.cpu[side])) * scale)} ${unit}`;
    return `| ${label} | ${of('service')} | ${of('anchor')} |`;
  };
  return [
    '| | service | anchor |',
    '|---|---|---|',
    segment('start → acknowledgement', (segments) => segments.ackMs),
    segment('acknowledgement → the provider receives the call', (segments) => segments.pickupMs),
    segment('the provider’s own time', (segments) => segments.providerMs),
    segment('the provider’s answer → callback received', (segments) => segments.callbackMs),
    cpu('API process CPU per run started', (side) => side.apiPerStart, 'ms', 1),
    cpu('worker process CPU per run drained', (side) => side.workerPerRun, 'ms', 1),
    cpu('Redis CPU per run', (side) => side.redisPerRun, 'µs', 1000),
  ];
}

/**
 * The whole report, in Markdown.
 * @param results - what the benchmark measured
 */
export function renderHotPath(results: HotPathResults): string {
  const { setup, direct } = results;
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
  return [
    '# The hot path against the naive anchor',
    '',
    `Written by \`tsx bench/hot-path.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)} at the end.`,
    'The anchor is `bench/naive-runner.ts`: Express 5 `POST /start` → BullMQ → one worker making one chat completion',
    'call and POSTing an HMAC-signed callback itself. Each side runs an API process and a worker process on a',
    '`redis-server` of its own; the service runs its production build with the defaults of a queue deployment',
    '(embedded control plane, history outbox, callback queue). Both call the same fake provider and call back the',
    `same receiver. Medians over ${setup.rounds} interleaved rounds (anchor, then service), spread min–max, after each side`,
    `completed ${setup.warmUpRuns} unmeasured runs (25 clients, the provider answering at once), so that both are measured at`,
    'their steady speed: V8 optimizes a function once it has run often enough, and a process that runs more distinct',
    `code per run takes more runs to get there. The warm-up, cold processes included, ran ${results.warmUp.service.toFixed(0)} runs/s on the`,
    `service and ${results.warmUp.anchor.toFixed(0)} on the anchor.`,
    '',
    '| scenario | service | anchor | service ÷ anchor (min–max) | target | met |',
    '|---|---|---|---|---|---|',
    ...[results.ack, results.trip, results.drain, results.commands].map(figureRow),
    '',
    `Acknowledgements: ${setup.ackSeconds} s loads of ${setup.connections} connections, no worker process running. Start → callback:`,
    `${setup.trips} runs a round, one at a time, the provider answering at once. Drain: ${setup.drainRuns} runs started while the run`,
    `queue is paused, timed from its resume to the last callback, the provider answering after ${setup.drainLatencyMs} ms, one worker`,
    `process of concurrency ${setup.workerConcurrency} (the service's default \`WORKER_CONCURRENCY\`) on each side. Commands: below.`,
    '',
    '| scenario | wall time | ideal | ÷ ideal | target | met |',
    '|---|---|---|---|---|---|',
    directRow(direct, setup),
    '',
    `Direct mode: the blocking \`/v1/execute\` of the production build, a ${setup.steps}-step PipeSequence of PipeLLM steps, each`,
    `call answered after ${setup.stepLatencyMs} ms; median of ${direct.wallMs.length} runs after ${setup.directWarmUpRuns} unmeasured ones. Where the overhead goes (medians):`,
    `request → first provider call ${ms(direct.firstCallMs)}; one call's answer → the next call ${ms(direct.betweenCallsMs)} per step; last`,
    `answer → response ${ms(direct.afterLastCallMs)}. For reference, the same ${setup.steps} calls made one after the other by a bare`,
    `\`fetch\` loop of the benchmark's process take ${ms(direct.loopMs)} (median of ${direct.loopMs.length}): the floor of this machine's timers and loopback.`,
    '',
    '## Where the time goes',
    '',
    'The segments of the start → callback runs, timed by the client, the fake provider and the receiver to the',
    'millisecond (means over every run, so they add up to the mean trip), and the CPU time each process used per run',
    '(`/proc/<pid>/stat`, its threads included; Redis: `INFO cpu`; medians over the rounds).',
    '',
    ...timeRows(results),
    '',
    '## Redis commands per run',
    '',
    `The calls of \`INFO commandstats\` over ${setup.countedRuns} runs a round started by ${setup.countingClients} clients at once, until ${setup.settleMs} ms`,
    'after the last callback, divided by the runs. Redis counts the commands a Lua script runs under their own names,',
    'beside the `evalsha` or `eval` that ran the script. Idle, with nothing to do, the service issues',
    `${results.idlePerSecond.service.toFixed(0)} commands a second and the anchor ${results.idlePerSecond.anchor.toFixed(0)} (included in the counts).`,
    '',
    '### The service, by command',
    '',
    `Over its ${setup.rounds} rounds: script calls first, then every command run, in a script or not.`,
    '',
    ...byCommand(results.commandRounds.service),
    '',
    '### The anchor, by command',
    '',
    ...byCommand(results.commandRounds.anchor),
    '',
    '### By client command and script',
    '',
    `What \`MONITOR\` saw over ${setup.monitoredRuns} more runs of each side (started the same way, until ${setup.settleMs} ms after the`,
    'last callback): each command a client sent (one round trip at most: commands auto-pipelined in one tick share',
    'one), a script call under its name (`bullmq:…` for BullMQ’s, `mthds:…` for the service’s) with the commands it',
    'ran (the commands of a `MULTI` … `EXEC` transaction are counted as sent, beside `multi` and `exec`).',
    '',
    '#### The service',
    '',
    ...byClientCommand(results.attributed.service, setup.monitoredRuns),
    '',
    '#### The anchor',
    '',
    ...byClientCommand(results.attributed.anchor, setup.monitoredRuns),
    '',
  ].join('\n');
}
