/**
 * Running a pipe of a library on caller inputs, from a fresh working memory to the final one
 * (docs/runtime.md#starting-a-run).
 */
import type { Library, Pipe } from '../mthds/index.js';
import { validatorFor } from './content-validator.js';
import type { GraphRecorder } from './graph-recorder.js';
import { mockInputs } from './mock-output.js';
import { DEFAULT_RUN_MAX_PIPES, PipeBudget } from './pipe-budget.js';
import type { DryRunSupport, PipeJob, RunEnvironment } from './pipe-job.js';
import { PipeProgressRecorder } from './pipe-progress.js';
import { routePipe } from './pipe-router.js';
import type { RuntimeDeps } from './ports.js';
import { budgeted } from './run-budget.js';
import { runSignal } from './run-signal.js';
import { StepCheckpointing } from './step-checkpoints.js';
import { ROOT_STEP_PATH } from './step-path.js';
import { buildWorkingMemory } from './stuff-factory.js';
import { recordUsage } from './usage-recorder.js';
import type { InferenceCall, UsageSummary } from './usage-report.js';
import type { WorkingMemory } from './working-memory.js';

/** Depth of nested pipes before a run fails (docs/runtime.md#starting-a-run). */
export const DEFAULT_PIPE_STACK_LIMIT = 20;

/** A run to perform. */
export interface RunRequest {
  library: Library;
  pipe: Pipe;
  /** The request's `inputs` as received (validated here). */
  inputs: unknown;
  outputName?: string | null;
  outputMultiplicity?: boolean | number | null;
  dynamicOutputConceptRef?: string | null;
  pipelineRunId: string;
  /**
   * The run's budget in USD (> 0): each inference call is checked against it before it is made (run-budget.ts,
   * docs/inference.md#run-budget); no budget when absent or null.
   */
  maxCostUsd?: number | null;
}

/** A finished run. Times are epoch milliseconds. */
export interface RunOutcome {
  pipelineRunId: string;
  createdAt: number;
  finishedAt: number;
  memory: WorkingMemory;
  /** The run's inference calls, in call order. */
  inferenceCalls: InferenceCall[];
  /** The run's usage and cost summary (usage-report.ts). */
  usage: UsageSummary;
}

/**
 * Run a pipe.
 * @param request - library, pipe, inputs and run parameters
 * @param deps - inference, clock, ids, abort signal; with `checkpoints`, operators an earlier attempt finished are
 *   replayed from their checkpoints and the others checkpointed (docs/checkpoints.md; not in a dry run)
 * @param dryRun - present for a dry run: the inputs are ignored and mocked, and `deps` should carry mock backends
 * @param graph - records the execution graph when given
 * @returns the final working memory and timestamps
 * @throws StuffFactoryError and concept errors for bad inputs (422); RunBudgetExceededError (422) when an inference
 *   call would exceed `maxCostUsd`; RunPipeBudgetExceededError (422) when the run would start more than
 *   `deps.maxPipes` pipes (ComputeBudgetExceededError when a dry run would run more than 10,000: pipe-budget.ts); any
 *   pipe error
 */
export async function runPipeline(
  request: RunRequest,
  deps: RuntimeDeps,
  dryRun?: DryRunSupport,
  graph?: GraphRecorder,
): Promise<RunOutcome> {
  const createdAt = deps.now();
  let checkpoints: StepCheckpointing | undefined;
  const inference = request.maxCostUsd
    ? budgeted(deps.inference, request.maxCostUsd, () => checkpoints?.replayedCostUsd ?? 0)
    : deps.inference;
  const usage = recordUsage(inference, deps.now);
  if (deps.checkpoints && !dryRun) checkpoints = new StepCheckpointing(deps.checkpoints, usage);
  // a budget is one ledger of spent and reserved costs: its run's children stay in-process (docs/fan-out.md)
  const { fanOut, ...local } = deps;
  const runDeps: RuntimeDeps = {
    ...local,
    ...(fanOut && !request.maxCostUsd ? { fanOut } : {}),
    ...(deps.signal ? { signal: runSignal(deps.signal) } : {}),
    inference: usage.inference,
  };
  const validator = validatorFor(request.library);
  const progress = deps.observer ? new PipeProgressRecorder(deps.observer, deps.now, usage.summary) : undefined;
  const environment: RunEnvironment = {
    library: request.library,
    validator,
    deps: runDeps,
    stackLimit: DEFAULT_PIPE_STACK_LIMIT,
    pipes: dryRun ? PipeBudget.dryRun() : PipeBudget.live({ max: deps.maxPipes ?? DEFAULT_RUN_MAX_PIPES, started: 0 }),
    ...(dryRun ? { dryRun } : {}),
    ...(graph ? { graph } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(progress ? { progress } : {}),
    runPipe: (job: PipeJob) => routePipe(job, environment),
    absorbChild: (report, params) => {
      usage.absorb(report.usage);
      graph?.absorb(report.graph, params.parentNode);
      progress?.replay(report.progress, params.parentStep);
    },
  };
  const memory = dryRun
    ? mockInputs(request.pipe, { library: request.library, validator, dryRun }, deps.ids)
    : buildWorkingMemory(request.inputs, { library: request.library, pipe: request.pipe, validator, ids: deps.ids });
  try {
    await environment.runPipe({
      pipe: request.pipe,
      memory,
      outputName: request.outputName ?? null,
      params: {
        outputMultiplicity: request.outputMultiplicity ?? null,
        dynamicOutputConceptRef: request.dynamicOutputConceptRef ?? null,
        stack: [],
        stepPath: ROOT_STEP_PATH,
      },
    });
  } finally {
    await checkpoints?.settled();
  }
  return {
    pipelineRunId: request.pipelineRunId,
    createdAt,
    finishedAt: deps.now(),
    memory,
    inferenceCalls: usage.calls,
    usage: usage.summary(),
  };
}
