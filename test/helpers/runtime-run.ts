/**
 * Running a pipe through the runtime API (`runPipeline`) with no HTTP: deterministic ids, a fake clock, the mock
 * backend unless the test passes its own port, and a compact view of the final working memory.
 */
import pLimit from 'p-limit';
import { createMockBackend } from '../../shared/inference/index.js';
import type { Library } from '../../shared/mthds/index.js';
import {
  type FanOutChild,
  type FanOutOutcome,
  type FanOutPort,
  type FanOutReport,
  type IdSource,
  type InferencePort,
  type LlmRequest,
  type ObjectRequest,
  type RunOutcome,
  type RuntimeDeps,
  runChildPipeline,
  runPipeline,
  type WorkingMemory,
} from '../../shared/runtime/index.js';

/** The instant the fake clock of {@link runPipe} starts at: 2026-01-15T12:00:00.000Z. */
export const CLOCK_START = Date.parse('2026-01-15T12:00:00.000Z');

/** How far the fake clock of {@link runPipe} moves on each reading, in ms. */
export const CLOCK_STEP = 1000;

/**
 * An id source counting up: `s1`, `s2`, …
 * @param prefix - what each id starts with (default `s`)
 */
function counterIds(prefix = 's'): IdSource {
  let count = 0;
  return {
    next: () => {
      count += 1;
      return `${prefix}${count}`;
    },
  };
}

/**
 * A fake clock: the first reading is `start`, each later one `step` ms further.
 * @param start - the first reading, epoch ms (default {@link CLOCK_START})
 * @param step - ms between readings (default {@link CLOCK_STEP})
 */
function steppingClock(start = CLOCK_START, step = CLOCK_STEP): () => number {
  let readings = 0;
  return () => {
    const value = start + readings * step;
    readings += 1;
    return value;
  };
}

/**
 * The ISO-8601 time of the `reading`-th reading (0-based) of a default {@link steppingClock}.
 * @param reading - how many readings came before it
 */
export function clockIso(reading: number): string {
  return new Date(CLOCK_START + reading * CLOCK_STEP).toISOString();
}

/** One call a {@link RecordingPort} received. */
export type RecordedCall = { kind: 'text'; request: LlmRequest } | { kind: 'object'; request: ObjectRequest };

/** An inference port that records its calls and how many ran at once. */
export interface RecordingPort extends InferencePort {
  /** The calls in the order they started. */
  readonly calls: RecordedCall[];
  /** Calls started and not yet answered. */
  readonly inFlight: number;
  /** The most calls in flight at once so far. */
  readonly maxInFlight: number;
}

/** How a {@link RecordingPort} answers; a missing answer fails the call. */
export interface RecordingAnswers {
  text?: (request: LlmRequest) => string | Promise<string>;
  object?: (request: ObjectRequest) => unknown;
}

/** The token usage every {@link RecordingPort} answer reports. */
export const RECORDING_USAGE = { model: 'recording', input_tokens: 1, output_tokens: 1 };

/**
 * An inference port answering with `answers` and recording every call (request as received, in start order) and the
 * calls in flight.
 * @param answers - the text and object answers (either may return a promise the test settles)
 */
export function recordingPort(answers: RecordingAnswers = {}): RecordingPort {
  const calls: RecordedCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const tracked = async <T>(call: RecordedCall, answer: () => T | Promise<T>): Promise<T> => {
    calls.push(call);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await answer();
    } finally {
      inFlight -= 1;
    }
  };
  return {
    name: 'recording',
    isMock: true,
    calls,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    generateText: (request) =>
      tracked({ kind: 'text', request }, async () => {
        if (!answers.text) throw new Error(`unexpected text call from ${request.pipeCode}`);
        return { text: await answers.text(request), usage: RECORDING_USAGE };
      }),
    generateObject: (request) =>
      tracked({ kind: 'object', request }, async () => {
        if (!answers.object) throw new Error(`unexpected object call from ${request.pipeCode}`);
        return { object: await answers.object(request), usage: RECORDING_USAGE };
      }),
  };
}

/** A value through JSON and back, as it crosses a queue. */
function overTheWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * A fan-out port that runs each child in this process through `runChildPipeline`, its child, outcome and report
 * through JSON as a queue would carry them, at most `cap` at once; the first failure stops the children not started.
 * @param library - the run's library
 * @param deps - the runtime's ports the children run with
 */
function loopbackFanOut(library: Library, deps: RuntimeDeps): FanOutPort {
  return {
    run(count, childAt, options) {
      const limit = pLimit(options.cap);
      let failed = false;
      return Promise.all(
        Array.from({ length: count }, (_, index) =>
          limit(async (): Promise<FanOutOutcome> => {
            if (failed) throw new Error('not started: an earlier child failed');
            const result = await runChildPipeline(library, overTheWire<FanOutChild>(childAt(index)), deps);
            if (!failed) options.onEnded(index, overTheWire<FanOutReport>(result.report));
            if (!result.ok) {
              failed = true;
              throw result.error;
            }
            return overTheWire(result.outcome);
          }),
        ),
      );
    },
  };
}

/** Whether {@link runPipe} fans controllers' children out (set by {@link describeOnBothPaths}). */
let fanningOut = false;

/**
 * Declare a suite twice: with controllers' children in-process, then fanned out through {@link loopbackFanOut}
 * (docs/fan-out.md: the semantics must not differ).
 * @param title - the suite's title
 * @param body - the suite
 */
export function describeOnBothPaths(title: string, body: () => void): void {
  describe(title, body);
  describe(`${title} (children fanned out)`, () => {
    before(() => {
      fanningOut = true;
    });
    after(() => {
      fanningOut = false;
    });
    body();
  });
}

/** What a test may change in a {@link runPipe} run. */
export interface RunPipeOptions {
  /** The inference port (the mock backend by default). */
  inference?: InferencePort;
  outputName?: string;
  outputMultiplicity?: boolean | number;
  batchConcurrency?: number;
  /** Ids of the stuffs (a fresh {@link counterIds} by default). */
  ids?: IdSource;
  /** The clock (a fresh {@link steppingClock} by default). */
  now?: () => number;
  /** The functions PipeFunc may call (none by default). */
  functions?: RuntimeDeps['functions'];
  /** The run's step checkpoints (none by default). */
  checkpoints?: RuntimeDeps['checkpoints'];
  /** Follows the run pipe by pipe (none by default). */
  observer?: RuntimeDeps['observer'];
  /** The host's signal (none by default). */
  signal?: AbortSignal;
}

/**
 * Run a pipe of a library on inputs, as the run routes would but without HTTP, on the calling thread.
 * @param library - a loaded library (see `test/helpers/library.ts`)
 * @param pipeCode - the pipe to run
 * @param inputs - the request `inputs`, as a client would send them
 * @param options - port, run parameters, ids and clock
 * @returns the run outcome (pipeline run id `run-1`)
 */
export function runPipe(
  library: Library,
  pipeCode: string,
  inputs: unknown,
  options: RunPipeOptions = {},
): Promise<RunOutcome> {
  const deps: RuntimeDeps = {
    inference: options.inference ?? createMockBackend(),
    ids: options.ids ?? counterIds(),
    now: options.now ?? steppingClock(),
    ...(options.batchConcurrency === undefined ? {} : { batchConcurrency: options.batchConcurrency }),
    ...(options.functions === undefined ? {} : { functions: options.functions }),
    ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (fanningOut) deps.fanOut = loopbackFanOut(library, { ...deps });
  return runPipeline(
    {
      library,
      pipe: library.resolvePipe(pipeCode),
      inputs,
      outputName: options.outputName ?? null,
      outputMultiplicity: options.outputMultiplicity ?? null,
      pipelineRunId: 'run-1',
    },
    deps,
  );
}

/** One stuff of a {@link MemoryView}. */
export interface StuffView {
  /** The stuff's own name (not the key it is stored under). */
  name: string | null;
  /** The concept ref, `domain.Code`. */
  concept: string;
  /** The content as the wire shows it: one item, or `{items: [...]}`. */
  content: unknown;
  /** The stuff code. */
  code: string;
}

/** A working memory reduced to what tests assert: main stuff name, aliases and root stuffs (insertion order). */
export interface MemoryView {
  main: string | null;
  aliases: Record<string, string>;
  root: Record<string, StuffView>;
}

/**
 * View a working memory.
 * @param memory - the memory of a run outcome
 */
export function memoryView(memory: WorkingMemory): MemoryView {
  return {
    main: memory.mainStuffName(),
    aliases: Object.fromEntries(memory.aliasEntries()),
    root: Object.fromEntries(
      memory.entries().map(([key, stuff]) => [
        key,
        {
          name: stuff.stuffName,
          concept: stuff.concept.ref,
          content: stuff.content.kind === 'item' ? stuff.content.item : { items: stuff.content.items },
          code: stuff.stuffCode,
        },
      ]),
    ),
  };
}

/**
 * Native Text content.
 * @param value - the text
 */
export function text(value: string): { text: string } {
  return { text: value };
}

/**
 * A list of native Text contents, as list content.
 * @param values - the texts
 */
export function texts(...values: string[]): { items: { text: string }[] } {
  return { items: values.map(text) };
}

/**
 * The error a run fails with.
 * @param run - the run's promise
 * @throws Error when the run succeeds
 */
export async function runFailure(run: Promise<unknown>): Promise<Error> {
  try {
    await run;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`the run threw a non-Error: ${String(error)}`);
  }
  throw new Error('the run should have failed');
}
