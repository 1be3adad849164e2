/**
 * Reporting pipe runs to the run's {@link RunObserver} (docs/run-events.md): each pipe run gets a step number, a start
 * and an end report, its duration on the run's clock, and the tokens of the inference calls made while it ran — its
 * own and its nested pipes' — counted by a decorator of the inference port that wraps the parent's.
 */
import { toMthdsError } from '../errors/index.js';
import type { Pipe } from '../mthds/index.js';
import type { InferencePort, TokenUsage } from './ports.js';
import type { PipeProgress, PipeStep, PipeTokenUsage, RunObserver } from './run-observer.js';
import type { UsageSummary } from './usage-report.js';

/** One pipe run being reported: its step, the inference port that counts its tokens, and how it ends. */
export interface PipeSpan {
  /** Its step number, the parent step of the pipes it runs. */
  readonly step: number;
  /** The inference port the pipe and its nested pipes call: the parent's, counting into this span. */
  readonly inference: InferencePort;
  /**
   * Run the pipe's work in its host's scope of the step ({@link RunObserver.within}), or as it is without one.
   * @param work - the pipe's run
   */
  within<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Report the pipe finished.
   * @param replayed - true when it was restored from its step checkpoint (no call made; step-checkpoints.ts)
   */
  finish(replayed?: boolean): void;
  /**
   * Report the pipe failed.
   * @param error - what it threw
   */
  fail(error: unknown): void;
  /**
   * Count tokens spent elsewhere while the pipe ran (a fanned-out child's, docs/fan-out.md).
   * @param usage - the tokens
   */
  count(usage: PipeTokenUsage): void;
}

function counted(inference: InferencePort, usage: PipeTokenUsage): InferencePort {
  const count = async <T extends { usage: TokenUsage }>(call: Promise<T>): Promise<T> => {
    const result = await call;
    usage.inputTokens += result.usage.input_tokens;
    usage.outputTokens += result.usage.output_tokens;
    return result;
  };
  return {
    name: inference.name,
    isMock: inference.isMock,
    generateText: (request) => count(inference.generateText(request)),
    generateObject: (request) => count(inference.generateObject(request)),
    ...(inference.generateImages ? { generateImages: (request) => count(inference.generateImages!(request)) } : {}),
    ...(inference.search ? { search: (request) => count(inference.search!(request)) } : {}),
    ...(inference.quote ? { quote: (request) => inference.quote!(request) } : {}),
  };
}

/** What a pipe threw, as a caller may read it: a foreign error is the catch-all, its message kept for the logs. */
function failureOf(error: unknown): { error_type: string; message: string } {
  const failure = toMthdsError(error);
  return { error_type: failure.error_type, message: failure.message };
}

/** Numbers the pipe runs of one run attempt and reports them to its observer. */
export class PipeProgressRecorder {
  private steps = 0;

  /**
   * @param observer - the run's observer
   * @param now - the run's clock, epoch ms
   * @param runUsage - the run's usage and cost report so far
   */
  constructor(
    private readonly observer: RunObserver,
    private readonly now: () => number,
    private readonly runUsage: () => UsageSummary,
  ) {}

  /**
   * Report a pipe run starting.
   * @param pipe - the pipe about to run
   * @param parentStep - the step of the controller running it, undefined for the entry pipe
   * @param inference - the inference port the pipe would call (the parent span's, or the run's)
   * @returns its span, to end exactly once
   */
  start(pipe: Pipe, parentStep: number | undefined, inference: InferencePort): PipeSpan {
    this.steps += 1;
    const step: PipeStep = {
      step: this.steps,
      parentStep: parentStep ?? null,
      pipeCode: pipe.code,
      pipeType: pipe.type,
      outputConcept: pipe.output.conceptRef,
    };
    const startedAt = this.now();
    const usage: PipeTokenUsage = { inputTokens: 0, outputTokens: 0 };
    this.observer.pipeProgress({ kind: 'started', step, at: startedAt });
    const ended = () => {
      const at = this.now();
      return { step, at, durationMs: at - startedAt, usage: { ...usage }, runUsage: this.runUsage() };
    };
    return {
      step: step.step,
      inference: counted(inference, usage),
      within: (work) => (this.observer.within ? this.observer.within(step.step, work) : work()),
      finish: (replayed) =>
        this.observer.pipeProgress({ kind: 'finished', ...ended(), ...(replayed ? { replayed: true } : {}) }),
      fail: (error) => this.observer.pipeProgress({ kind: 'failed', ...ended(), error: failureOf(error) }),
      count: (spent) => {
        usage.inputTokens += spent.inputTokens;
        usage.outputTokens += spent.outputTokens;
      },
    };
  }

  /**
   * Report the pipe runs of a fanned-out child (docs/fan-out.md) as steps of this run: renumbered after the steps so
   * far, the child's top step under `parentStep`, each end report carrying this run's usage so far; times as the
   * child reported them.
   * @param reports - the child's reports, in order, its steps numbered from 1
   * @param parentStep - the step of the controller that ran the child, undefined for none
   */
  replay(reports: readonly PipeProgress[], parentStep: number | undefined): void {
    const steps = new Map<number, number>();
    for (const report of reports) {
      if (report.kind === 'started') {
        this.steps += 1;
        steps.set(report.step.step, this.steps);
      }
      const step: PipeStep = {
        ...report.step,
        step: steps.get(report.step.step) ?? report.step.step,
        parentStep:
          report.step.parentStep === null ? (parentStep ?? null) : (steps.get(report.step.parentStep) ?? null),
      };
      // no leading spread that adds members (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
      this.observer.pipeProgress(
        report.kind === 'started'
          ? { ...report, step }
          : Object.assign({}, report, { step, runUsage: this.runUsage() }),
      );
    }
  }
}
