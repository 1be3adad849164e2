/**
 * The verdict on a library (spec §4.5): static validation, then the dry-run sweep, which runs every pipe on mock
 * inputs; a failing pipe makes the verdict invalid. The default pipe (the primary bundle's `main_pipe`, or the one
 * the caller names) records its graph during its sweep run; when the sweep does not run it (a contract-only pipe, a
 * pipe calling an absent package) it is dry-run once more for its graph (null without a default pipe; when that dry run
 * fails, the graph shows the nodes it ran, the failed ones with their error). `shared/wire`'s validation report renders
 * the verdict.
 */
import type { ValidationErrorItem } from '../errors/index.js';
import {
  type BundleSource,
  type Library,
  type LoadedBundle,
  loadLibrary,
  type ModelReferenceCatalog,
  type PackageExports,
  type Pipe,
  type ValidationMode,
} from '../mthds/index.js';
import { dryRunSweep, type ValidatedPipe } from './dry-run-sweep.js';
import { GraphRecorder, type RunGraph } from './graph-recorder.js';
import type { DryRunSupport } from './pipe-job.js';
import type { RuntimeDeps } from './ports.js';
import { runPipeline } from './run-pipeline.js';
import { withTemplateBatch } from './template-batch.js';

/** What the sweep needs: mock backends and the placeholder source. */
export interface SweepDeps {
  deps: RuntimeDeps;
  dryRun: DryRunSupport;
}

/** A library that failed static validation or its dry run. */
export interface InvalidVerdict {
  ok: false;
  errors: ValidationErrorItem[];
  message: string;
}

/** A library that passed static validation and its dry run. */
export interface ValidVerdict {
  ok: true;
  library: Library;
  /** The bundle declaring a `main_pipe` (else the first). */
  primary: LoadedBundle;
  /** The static rules' warnings. */
  warnings: ValidationErrorItem[];
  validatedPipes: ValidatedPipe[];
  /** Contract-only pipes (`PipeSignature`), by ref, sorted. */
  pendingSignatures: string[];
  /** The pipe a selector-less run would execute, if any. */
  defaultPipe: Pipe | undefined;
  /**
   * The recorded graph of the default pipe's dry run (partial when that dry run fails); null without a default pipe.
   */
  graph: RunGraph | null;
}

/** The verdict on a library. */
export type LibraryVerdict = InvalidVerdict | ValidVerdict;

async function defaultPipeGraph(library: Library, pipe: Pipe, sweep: SweepDeps): Promise<RunGraph> {
  const recorder = new GraphRecorder();
  const createdAt = sweep.deps.now();
  try {
    await runPipeline(
      { library, pipe, inputs: null, pipelineRunId: `graph-${pipe.ref}` },
      sweep.deps,
      sweep.dryRun,
      recorder,
    );
  } catch {
    // The failed node carries the error; the graph shows how far the dry run got.
  }
  return namedGraph(recorder, pipe, createdAt);
}

function namedGraph(recorder: GraphRecorder, pipe: Pipe, createdAt: number): RunGraph {
  return recorder.graph(`dry-run:${pipe.ref}`, createdAt, { domain: pipe.domain_code, mainPipe: pipe.code });
}

/**
 * Judge bundle sources.
 * @param sources - contents with their logical file names
 * @param sweep - mock backends for the sweep; without a template renderer, the sweep and the graph's dry run share one
 *   templating batch (each template compiles once)
 * @param options - `allowSignatures`: also mock-run contract-only pipes; `mode`: the static rules' mode (compat by
 *   default; docs/language.md#strict-and-compat-modes); `defaultPipe`: the pipe a selector-less run would execute
 *   when something other than the bundles names it (a fetched manifest's `main_pipe`, bare or qualified); `models`:
 *   the serving model deck's names, to refuse unknown `model` references at load (unchecked when absent);
 *   `bundleFiles`: where the bundles came from, for PipeDocGen `template_file` (`LoadOptions.bundleFiles`);
 *   `exports`: the fetched packages' `[exports]` (`LoadOptions.exports`)
 * @returns the verdict; never throws for an invalid bundle
 * @see spec §4.5
 */
export async function libraryVerdict(
  sources: BundleSource[],
  sweep: SweepDeps,
  options: {
    allowSignatures: boolean;
    mode?: ValidationMode;
    defaultPipe?: string | null;
    models?: ModelReferenceCatalog;
    bundleFiles?: readonly string[] | null;
    exports?: PackageExports;
  },
): Promise<LibraryVerdict> {
  const loaded = loadLibrary(sources, {
    mode: options.mode ?? 'compat',
    ...(options.models ? { models: options.models } : {}),
    ...(options.bundleFiles === undefined ? {} : { bundleFiles: options.bundleFiles }),
    ...(options.exports ? { exports: options.exports } : {}),
  });
  if (!loaded.ok) return { ok: false, errors: loaded.errors, message: loaded.message };
  const { library } = loaded;
  const primary = library.bundles.find((bundle) => bundle.blueprint.main_pipe !== undefined) ?? library.bundles[0]!;
  const bundleMain = primary.blueprint.main_pipe;
  const defaultPipe = options.defaultPipe
    ? library.findPipe(options.defaultPipe, primary.blueprint.domain)
    : bundleMain === undefined
      ? undefined
      : library.pipes.get(`${primary.blueprint.domain}.${bundleMain}`);
  const batch: SweepDeps = { ...sweep, deps: withTemplateBatch(sweep.deps) };
  const recorder = new GraphRecorder();
  const createdAt = batch.deps.now();
  const swept = await dryRunSweep(library, batch.deps, batch.dryRun, {
    ...options,
    ...(defaultPipe ? { record: { pipe: defaultPipe, graph: recorder } } : {}),
  });
  if (swept.errors.length > 0)
    return {
      ok: false,
      errors: swept.errors,
      message: `Dry run error(s): ${swept.errors.map((item) => item.message).join(' | ')}`,
    };
  let graph: RunGraph | null = null;
  if (defaultPipe)
    graph = swept.recorded
      ? namedGraph(recorder, defaultPipe, createdAt)
      : await defaultPipeGraph(library, defaultPipe, batch);
  return {
    ok: true,
    library,
    primary,
    warnings: loaded.warnings,
    validatedPipes: swept.validatedPipes,
    pendingSignatures: [...library.pipes.values()]
      .filter((pipe) => pipe.type === 'PipeSignature')
      .map((pipe) => pipe.ref)
      .sort(),
    defaultPipe,
    graph,
  };
}
