/**
 * Public surface of `shared/runtime`: running pipes on working memory.
 *
 * Glossary: a *stuff* is a named, concept-typed piece of content; the *working memory* holds the stuffs of one run,
 * with `main_stuff` designating the latest output; a *pipe job* is one pipe to run on a working memory.
 */

export { type ChildRunResult, runChildPipeline } from './child-pipeline.js';
export { dryRunSweep, type SweepOutcome, type ValidatedPipe } from './dry-run-sweep.js';
export {
  type BundleRunOutcome,
  type BundleRunRequest,
  loadRunLibrary,
  runBundle,
  selectRunPipe,
} from './execute-bundle-run.js';
export type {
  FanOutChild,
  FanOutChildParams,
  FanOutOptions,
  FanOutOutcome,
  FanOutPort,
  FanOutReport,
} from './fan-out-port.js';
export type { GraphFragment } from './graph-recorder.js';
export { type LibraryVerdict, libraryVerdict, type SweepDeps } from './library-verdict.js';
export type { PipeFunction } from './operators/pipe-func.js';
export type { DryRunSupport } from './pipe-job.js';
export type {
  CallQuote,
  DocumentExtractorPort,
  DocumentPrinterPort,
  GeneratedImage,
  IdSource,
  ImageRequest,
  InferencePort,
  LibraryFilesPort,
  LlmRequest,
  ObjectRequest,
  PrintRequest,
  QuotedCall,
  QuoteRequest,
  RuntimeDeps,
  SearchAnswer,
  SearchRequest,
  TemplateCheckRequest,
  TokenUsage,
} from './ports.js';
export { DEFAULT_BATCH_CONCURRENCY } from './ports.js';
export { randomIdSource } from './random-id-source.js';
export type { RenderModel, RenderStuff } from './render-model.js';
export { checkRunInputs } from './run-inputs.js';
export type { PipeProgress, PipeStep, PipeTokenUsage, RunObserver } from './run-observer.js';
export { type RunOutcome, type RunRequest, runPipeline } from './run-pipeline.js';
export { uncappedRunSignal } from './run-signal.js';
export type { StepCheckpoint, StepCheckpointStore, StepOutcome } from './step-checkpoint-store.js';
export type { Stuff } from './stuff.js';
export {
  inThreadTemplateRenderer,
  type RenderedTemplate,
  type TemplateRenderer,
  type TemplateRenderOptions,
  type TemplateRenderTask,
} from './template-renderer.js';
export type { InferenceCall, UsageSummary, UsageTotals } from './usage-report.js';
export { type MemorySnapshot, type StuffSnapshot, WorkingMemory } from './working-memory.js';
