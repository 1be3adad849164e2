import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import type { RunEvent, RunEventLog, RunProgress } from '../../../shared/orchestration/events/index.js';
import { RunProgressTracker } from '../../../shared/orchestration/events/index.js';
import type { PipeProgress, PipeStep } from '../../../shared/runtime/index.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';

const STEP: PipeStep = { step: 1, parentStep: null, pipeCode: 'greet', pipeType: 'PipeLLM', outputConcept: 'Text' };
const RUN_USAGE = {
  total: { calls: 1, inputTokens: 3, outputTokens: 2, costUsd: null, unpricedCalls: 1 },
  byModel: {},
  byPipe: {},
};

/** The report of {@link STEP} finishing now. */
function finished(): PipeProgress {
  return {
    kind: 'finished',
    step: STEP,
    at: Date.now(),
    durationMs: 5,
    usage: { inputTokens: 3, outputTokens: 2 },
    runUsage: RUN_USAGE,
  };
}

/** An event log that records each append's event types; an append answers when its `release` is called. */
function recordingLog(): { log: RunEventLog; appends: string[][]; releases: (() => void)[] } {
  const appends: string[][] = [];
  const releases: (() => void)[] = [];
  const log: RunEventLog = {
    append: (_runId: string, events: readonly RunEvent[], _progress?: RunProgress) => {
      appends.push(events.map((event) => event.type));
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    progress: async () => undefined,
    async *follow() {},
  };
  return { log, appends, releases };
}

function tracker(log: RunEventLog, lingerMs?: number): RunProgressTracker {
  return new RunProgressTracker({
    events: log,
    runId: 'run-1',
    now: () => Date.now(),
    onError: () => undefined,
    ...(lingerMs === undefined ? {} : { lingerMs }),
  });
}

describe('the run progress tracker (shared/orchestration/events/run-progress-tracker.ts)', () => {
  let clock: Clock;
  beforeEach(() => {
    clock = installFakeClock();
  });
  afterEach(() => {
    uninstallFakeClock(clock);
  });

  it('should append an event at once without a linger, and what comes meanwhile in the next append', async () => {
    const { log, appends, releases } = recordingLog();
    const run = tracker(log);
    run.runStarted(null, 1);
    run.pipeProgress({ kind: 'started', step: STEP, at: Date.now() });
    expect(appends).to.deep.equal([['run:started']]);
    releases.shift()!();
    await clock.tickAsync(0);
    expect(appends).to.deep.equal([['run:started'], ['pipe:started']]);
  });

  it('should hold an event for its linger so the ones that follow quickly go in the same append', async () => {
    const { log, appends } = recordingLog();
    const run = tracker(log, 10);
    run.runStarted(null, 1);
    await clock.tickAsync(9);
    run.pipeProgress({ kind: 'started', step: STEP, at: Date.now() });
    expect(appends, 'within the linger').to.deep.equal([]);
    await clock.tickAsync(1);
    expect(appends).to.deep.equal([['run:started', 'pipe:started']]);
  });

  it("should hand over the run's end with whatever waits, its last pipe included, and append none of it", async () => {
    const { log, appends } = recordingLog();
    const run = tracker(log, 10);
    run.pipeProgress({ kind: 'started', step: STEP, at: Date.now() });
    run.pipeProgress(finished());
    const end = await run.finishing(null);
    expect(end.events.map((event) => event.type)).to.deep.equal(['pipe:started', 'pipe:finished', 'run:finished']);
    expect(end.events.at(-1)).to.include({ status: 'COMPLETED', finished_pipes: 1 });
    expect(end.progress).to.deep.include({ current_pipe: null, finished_pipes: 1 });
    await clock.tickAsync(10);
    expect(appends, 'the linger ended with the hand-over').to.deep.equal([]);
  });

  it("should hand over the run's end only once the append in flight is done, without its events", async () => {
    const { log, appends, releases } = recordingLog();
    const run = tracker(log);
    run.runStarted(null, 1);
    run.pipeProgress({ kind: 'started', step: STEP, at: Date.now() });
    let handed = false;
    const ending = run.finishing(null).then((end) => {
      handed = true;
      return end;
    });
    await clock.tickAsync(0);
    expect(handed, 'while run:started is being appended').to.equal(false);
    releases.shift()!();
    const end = await ending;
    expect(end.events.map((event) => event.type)).to.deep.equal(['pipe:started', 'run:finished']);
    expect(appends, 'appended once, by the append in flight').to.deep.equal([['run:started']]);
  });

  it('should append what waits at once on a flush', async () => {
    const { log, appends, releases } = recordingLog();
    const run = tracker(log, 10);
    run.runStarted(null, 1);
    const flushed = run.flush();
    expect(appends).to.deep.equal([['run:started']]);
    releases.shift()!();
    await flushed;
  });

  it("should hold what waits, and what comes after the attempt's result, for the run's end", async () => {
    const { log, appends, releases } = recordingLog();
    const run = tracker(log, 10);
    run.runStarted(null, 1);
    await clock.tickAsync(10);
    expect(appends).to.deep.equal([['run:started']]);
    run.pipeProgress({ kind: 'started', step: STEP, at: Date.now() });
    run.holdForEnd();
    releases.shift()!();
    run.pipeProgress(finished());
    // the attempt keeps its objects for a while: nothing is appended meanwhile, past the linger or the append in flight
    await clock.tickAsync(1000);
    expect(appends).to.deep.equal([['run:started']]);
    const end = await run.finishing(null);
    expect(end.events.map((event) => event.type)).to.deep.equal(['pipe:started', 'pipe:finished', 'run:finished']);
  });

  it('should append what it holds for the run’s end at once on a flush', async () => {
    const { log, appends, releases } = recordingLog();
    const run = tracker(log, 10);
    run.runStarted(null, 1);
    run.holdForEnd();
    await clock.tickAsync(10);
    expect(appends).to.deep.equal([]);
    const flushed = run.flush();
    expect(appends).to.deep.equal([['run:started']]);
    releases.shift()!();
    await flushed;
  });
});
