/**
 * The dry-run sweep of `/v1/validate` (docs/runtime.md#the-validation-sweep, docs/language.md#the-validation-dry-run):
 * every pipe of a valid library runs once on
 * mock inputs with mock inference, so failures that static rules cannot see (templates that do not render with real
 * content shapes, constructs that do not fit their concept, unregistered functions) surface as `dry_run` items.
 *
 * Statuses: SUCCESS or FAILURE (the contract's SKIPPED, once given to a pipe calling a package absent from the request,
 * is never produced: such a library is refused by `S5-package-refs`, docs/namespaces.md#cross-package-references).
 * Contract-only pipes (PipeSignature) are listed only when `allow_signatures` is set (then they mint a mock output).
 */
import { toMthdsError, type ValidationErrorItem } from '../errors/index.js';
import type { Library, Pipe } from '../mthds/index.js';
import type { GraphRecorder } from './graph-recorder.js';
import type { DryRunSupport } from './pipe-job.js';
import type { RuntimeDeps } from './ports.js';
import { runPipeline } from './run-pipeline.js';
import { withTemplateBatch } from './template-batch.js';

/** One swept pipe (docs/api.md#valid-report `validated_pipes`). */
export interface ValidatedPipe {
  pipe_ref: string;
  status: 'SUCCESS' | 'FAILURE';
}

/** The sweep's outcome. */
export interface SweepOutcome {
  validatedPipes: ValidatedPipe[];
  /** One `dry_run` item per failing pipe. */
  errors: ValidationErrorItem[];
  /** Whether the pipe of `options.record` ran to the end with its recorder (false when it failed or was not swept). */
  recorded: boolean;
}

/**
 * Sweep a library.
 * @param library - a library that passed static validation
 * @param deps - mock inference, mock extractor, clock and ids; without a template renderer, the sweep's renders share
 *   one templating batch (see `withTemplateBatch`)
 * @param dryRun - the placeholder source
 * @param options - `allowSignatures`: also mock-run contract-only pipes; `pipeRefs`: sweep only these qualified refs
 *   (every pipe when absent; `/v1/build/runner` scopes the sweep to its pipe); `record`: a pipe whose dry run also
 *   records its graph (the default pipe of `/v1/validate`, so it is not dry-run a second time for its graph)
 */
export async function dryRunSweep(
  library: Library,
  deps: RuntimeDeps,
  dryRun: DryRunSupport,
  options: {
    allowSignatures: boolean;
    pipeRefs?: ReadonlySet<string>;
    record?: { pipe: Pipe; graph: GraphRecorder };
  },
): Promise<SweepOutcome> {
  const runDeps = withTemplateBatch(deps);
  const validatedPipes: ValidatedPipe[] = [];
  const errors: ValidationErrorItem[] = [];
  let recorded = false;
  const scope = [...library.pipes.values()].filter((pipe) => !options.pipeRefs || options.pipeRefs.has(pipe.ref));
  for (const pipe of scope.sort((a, b) => a.ref.localeCompare(b.ref))) {
    if (pipe.type === 'PipeSignature' && !options.allowSignatures) continue;
    try {
      const graph = options.record?.pipe === pipe ? options.record.graph : undefined;
      await runPipeline({ library, pipe, inputs: null, pipelineRunId: `dry-run-${pipe.ref}` }, runDeps, dryRun, graph);
      recorded ||= graph !== undefined;
      validatedPipes.push({ pipe_ref: pipe.ref, status: 'SUCCESS' });
    } catch (error) {
      const failure = toMthdsError(error);
      validatedPipes.push({ pipe_ref: pipe.ref, status: 'FAILURE' });
      errors.push({
        category: 'dry_run',
        message: `Dry run of pipe '${pipe.ref}' failed: ${failure.message}`,
        error_type: 'DryRunError',
        pipe_code: pipe.code,
        domain_code: pipe.domain_code,
      });
    }
  }
  return { validatedPipes, errors, recorded };
}
