/**
 * Public surface of `shared/runtime`: running pipes on working memory.
 *
 * Glossary: a *stuff* is a named, concept-typed piece of content; the *working memory* holds the stuffs of one run,
 * with `main_stuff` designating the latest output; a *pipe job* is one pipe to run on a working memory.
 */
export type { DocumentExtractorPort, GeneratedImage, IdSource, ImageRequest, InferencePort, LibraryFilesPort, LlmRequest, ObjectRequest, RuntimeDeps, SearchAnswer, SearchRequest, TokenUsage } from './ports.js';

export { runPipeline, type RunOutcome, type RunRequest } from './run-pipeline.js';
export { WorkingMemory, type WorkingMemoryWire } from './working-memory.js';
export type { Stuff, StuffWire } from './stuff.js';
export { runBundle, loadRunLibrary, selectRunPipe, type BundleRunOutcome, type BundleRunRequest } from './execute-bundle-run.js';
export { randomIdSource } from './random-id-source.js';
export { libraryVerdict, type LibraryVerdict, type SweepDeps } from './library-verdict.js';
export type { TokensUsageRecord } from './usage-recorder.js';
export { dryRunSweep, type SweepOutcome, type ValidatedPipe } from './dry-run-sweep.js';
export type { DryRunSupport } from './pipe-job.js';
export type { PipeFunction } from './operators/pipe-func.js';
export { inThreadTemplateRenderer, type RenderedTemplate, type TemplateRenderOptions, type TemplateRenderTask, type TemplateRenderer } from './template-renderer.js';
export type { RenderModel, RenderStuff } from './render-model.js';
export { type GraphEdge, type GraphNode, type GraphSpec } from './graph-recorder.js';
