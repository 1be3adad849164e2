/**
 * The unit of execution handed to every pipe: the pipe, the working memory it reads and writes, where its output
 * goes, and the run parameters (docs/runtime.md#starting-a-run steps 8–10, §1.2).
 */
import type { Library, Pipe } from '../mthds/index.js';
import type { ContentValidator } from './content-validator.js';
import type { FanOutReport } from './fan-out-port.js';
import type { GraphRecorder } from './graph-recorder.js';
import type { PipeBudget } from './pipe-budget.js';
import type { PipeProgressRecorder } from './pipe-progress.js';
import type { RuntimeDeps } from './ports.js';
import type { WorkingMemory } from './working-memory.js';

/**
 * Run parameters that matter to semantics (docs/runtime.md#run-parameters). Children get a copy, never the parent's
 * object.
 */
export interface RunParams {
  /**
   * Multiplicity override aimed at the pipe about to run (`nb_output` / `multiple_output` / run `output_multiplicity`).
   */
  outputMultiplicity: boolean | number | null;
  /** Concrete concept for pipes whose output is `native.Dynamic`. */
  dynamicOutputConceptRef: string | null;
  /** Codes of the pipes currently running, outermost first (recursion guard). */
  stack: readonly string[];
  /**
   * The job's position in the run's execution, the same on every attempt of the same submission (step-path.ts): the
   * run's pipe is `main`; a controller's children extend their parent's path by one segment.
   */
  stepPath: string;
  /** Graph node of the controller running this pipe, when a graph is recorded. */
  parentNode?: string;
  /** Progress step of the controller running this pipe, when progress is reported. */
  parentStep?: number;
}

/** One pipe to run. */
export interface PipeJob {
  pipe: Pipe;
  memory: WorkingMemory;
  /** Name the output is stored under; null stores it at `main_stuff` (docs/runtime.md#output-naming). */
  outputName: string | null;
  params: RunParams;
}

/**
 * What a dry run needs (docs/runtime.md#dry-run): a source of schema-valid placeholder values. In a dry run, inputs are
 * mocks,
 * inference is the mock backend, contract-only pipes mint a mock output, and conditions run every outcome.
 */
export interface DryRunSupport {
  /**
   * Placeholder values valid against a JSON schema, one per seed, the same for the same seed: one mock output (the
   * items of a list together), bounded in size like a provider's completion. The schema is shared between calls (one
   * per concept of the library): it is read, never changed.
   * @throws the placeholder source's size error (LLMCompletionTruncatedError, 422) past its maximum output
   */
  mockValues(schema: Readonly<Record<string, unknown>>, seeds: readonly string[]): unknown[];
}

/** What stays the same for every pipe of one run. */
export interface RunEnvironment {
  library: Library;
  validator: ContentValidator;
  deps: RuntimeDeps;
  /** Maximum depth of nested pipes (docs/runtime.md#per-pipe-lifecycle; default 20). */
  stackLimit: number;
  /** Counts the pipes the run starts against its bound (pipe-budget.ts); the router counts each as it starts. */
  pipes: PipeBudget;
  /** Records the execution graph, when asked. */
  graph?: GraphRecorder;
  /** Reports pipe runs to the run's observer, when the host gave one. */
  progress?: PipeProgressRecorder;
  /** Present in a dry run. */
  dryRun?: DryRunSupport;
  /** Replays finished operators from their checkpoints and checkpoints the others, when the host keeps them. */
  checkpoints?: StepReplayer;
  /** Runs a child pipe through the router (controllers use it). */
  runPipe(job: PipeJob): Promise<void>;
  /**
   * Takes in what a fanned-out child spent and reported (child-jobs.ts): its usage into the run's usage and the
   * tokens of every pipe running around it, its pipe reports as steps under `params.parentStep`, its graph nodes
   * under `params.parentNode`. Set by the run (run-pipeline.ts); absent, the report is dropped.
   */
  absorbChild?(report: FanOutReport, params: RunParams): void;
}

/**
 * Runs operators through their step checkpoints (step-checkpoints.ts, docs/checkpoints.md): an operator an earlier
 * attempt finished is restored from its checkpoint instead of running.
 */
export interface StepReplayer {
  /**
   * Whether a job's pipe is checkpointed.
   * @param job - the job
   */
  covers(job: PipeJob): boolean;
  /**
   * Run a covered job: from its checkpoint when it has a matching one (no inference call), else with `runner`, then
   * keep its checkpoint.
   * @returns true when it was replayed from its checkpoint
   * @throws whatever `runner` throws
   */
  run(job: PipeJob, environment: RunEnvironment, runner: PipeRunner): Promise<boolean>;
}

/** An operator or controller: runs one job and leaves its output as the main stuff of `job.memory`. */
export type PipeRunner = (job: PipeJob, environment: RunEnvironment) => Promise<void>;
