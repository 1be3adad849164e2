/**
 * One blocking run of inline bundle sources: load and validate the library, pick the pipe, run it.
 * Shared by the API's direct orchestration and the queue workers.
 *
 * @see spec §2.3–2.4, §4.3; docs/runtime.md#starting-a-run
 */
import { PipeNotFoundError, ValidateBundleError } from '../errors/index.js';
import {
  type BundleSource,
  type Library,
  loadLibrary,
  type ModelReferenceCatalog,
  type PackageExports,
  type Pipe,
} from '../mthds/index.js';
import { GraphRecorder, type RunGraph } from './graph-recorder.js';
import type { RuntimeDeps } from './ports.js';
import { cachedRunLibrary } from './run-library-cache.js';
import { type RunOutcome, runPipeline } from './run-pipeline.js';

/** A run of inline sources, as the run routes receive it. */
export interface BundleRunRequest {
  sources: BundleSource[];
  pipeCode?: string | null;
  inputs?: unknown;
  outputName?: string | null;
  outputMultiplicity?: boolean | number | null;
  dynamicOutputConceptRef?: string | null;
  pipelineRunId: string;
  /**
   * The library of `sources`, when the caller has already loaded and validated them (the API checks them in its
   * diagnostics pool and builds the library from the checked bundles); loaded and validated here when absent.
   */
  library?: Library;
  /** The run's budget in USD (`max_cost_usd`), null or absent for none (run-pipeline.ts). */
  maxCostUsd?: number | null;
}

/**
 * Load and validate the sources as one library (compat mode, the run routes' default); the library of sources run
 * recently is reused (`run-library-cache.ts`).
 * @param sources - the run's bundles
 * @param models - the serving model deck's names: an unknown `$preset`, `@alias` or `~waterfall` is refused here, as
 *   `/v1/validate` refuses it (unchecked when absent; one deck per process, so the cache needs no key for it)
 * @param bundleFiles - where the bundles came from, for PipeDocGen `template_file`: the paths of the files sent beside
 *   them, or null for bundles sent as text (`LoadOptions.bundleFiles`; unchecked when absent)
 * @param exports - a `method_ref` run's fetched `[exports]` (`LoadOptions.exports`; unchecked when absent)
 * @throws ValidateBundleError (422) carrying every validation item
 */
export function loadRunLibrary(
  sources: BundleSource[],
  models?: ModelReferenceCatalog,
  bundleFiles?: readonly string[] | null,
  exports?: PackageExports,
): Library {
  const files = bundleFiles === undefined ? '' : bundleFiles === null ? 'text' : `files:${bundleFiles.join('\n')}`;
  const variant = exports === undefined ? files : `${files}\nexports:${JSON.stringify(exports)}`;
  return cachedRunLibrary(
    sources,
    () => {
      const loaded = loadLibrary(sources, {
        mode: 'compat',
        ...(models ? { models } : {}),
        ...(bundleFiles === undefined ? {} : { bundleFiles }),
        ...(exports ? { exports } : {}),
      });
      if (!loaded.ok) throw new ValidateBundleError(loaded.message, loaded.errors);
      return loaded.library;
    },
    variant,
  );
}

/**
 * The pipe a run executes: `pipe_code` when given, else the `main_pipe` of the first bundle declaring one.
 * @throws PipeNotFoundError (422) when `pipe_code` names no pipe, or when neither selects one
 */
export function selectRunPipe(library: Library, pipeCode: string | null | undefined): Pipe {
  if (pipeCode) return library.resolvePipe(pipeCode);
  const main = library.mainPipe();
  if (!main) {
    const codes = [...library.pipes.values()].map((pipe) => pipe.code).sort();
    throw new PipeNotFoundError(
      `No pipe to run: the bundle declares no main_pipe and the request has no pipe_code. Send pipe_code, one of: ${codes.join(', ')}.`,
    );
  }
  return main;
}

/**
 * A finished bundle run: the run's outcome, the library it ran in and its live graph (rendered by `shared/wire`'s run
 * result).
 */
export interface BundleRunOutcome {
  outcome: RunOutcome;
  library: Library;
  /** The run's recorded execution graph (docs/graph-spec.md), its id the run's id. */
  graph: RunGraph;
}

/**
 * Run a bundle to completion.
 * @param request - sources, pipe selector, inputs and run parameters
 * @param deps - inference, clock, ids, abort signal
 * @returns the outcome, its library and its graph
 * @throws ValidateBundleError, PipeNotFoundError, StuffFactoryError (422) and any pipe error
 */
export async function runBundle(request: BundleRunRequest, deps: RuntimeDeps): Promise<BundleRunOutcome> {
  const library = request.library ?? loadRunLibrary(request.sources, undefined, deps.libraryFiles?.paths() ?? null);
  const pipe = selectRunPipe(library, request.pipeCode);
  const recorder = new GraphRecorder();
  const outcome = await runPipeline(
    {
      library,
      pipe,
      inputs: request.inputs,
      outputName: request.outputName ?? null,
      outputMultiplicity: request.outputMultiplicity ?? null,
      dynamicOutputConceptRef: request.dynamicOutputConceptRef ?? null,
      pipelineRunId: request.pipelineRunId,
      maxCostUsd: request.maxCostUsd ?? null,
    },
    deps,
    undefined,
    recorder,
  );
  const graph = recorder.graph(outcome.pipelineRunId, outcome.createdAt, {
    domain: pipe.domain_code,
    mainPipe: pipe.code,
  });
  return { outcome, library, graph };
}
