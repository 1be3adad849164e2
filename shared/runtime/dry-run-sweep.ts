/**
 * The dry-run sweep of `/v1/validate` (RUNTIME.md §4.5, LANGUAGE.md §8.3): every pipe of a valid library runs once on
 * mock inputs with mock inference, so failures that static rules cannot see (templates that do not render with real
 * content shapes, constructs that do not fit their concept, unregistered functions) surface as `dry_run` items.
 *
 * Statuses: SUCCESS, FAILURE, or SKIPPED for a pipe that calls another package absent from the request.
 * Contract-only pipes (PipeSignature) are listed only when `allow_signatures` is set (then they mint a mock output).
 */
import { toMthdsError, type ValidationErrorItem } from '../errors/index.js';
import { type Library, type Pipe, pipeSteps } from '../mthds/index.js';
import type { GraphRecorder } from './graph-recorder.js';
import type { DryRunSupport } from './pipe-job.js';
import type { RuntimeDeps } from './ports.js';
import { runPipeline } from './run-pipeline.js';
import { withTemplateBatch } from './template-batch.js';

/** One swept pipe (API-CONTRACT.md §4.3 `validated_pipes`). */
export interface ValidatedPipe {
  pipe_ref: string;
  status: 'SUCCESS' | 'FAILURE' | 'SKIPPED';
}

/** The sweep's outcome. */
export interface SweepOutcome {
  validatedPipes: ValidatedPipe[];
  /** One `dry_run` item per failing pipe. */
  errors: ValidationErrorItem[];
  /** Whether the pipe of `options.record` ran to the end with its recorder (false when skipped or not swept). */
  recorded: boolean;
}

function callsAbsentPackage(library: Library, pipe: Pipe, seen = new Set<string>()): boolean {
  if (seen.has(pipe.ref)) return false;
  seen.add(pipe.ref);
  const blueprint = pipe.blueprint;
  const refs =
    blueprint.type === 'PipeSequence'
      ? pipeSteps(blueprint.steps).map((step) => step.pipe)
      : blueprint.type === 'PipeParallel'
        ? blueprint.branches.map((branch) => branch.pipe)
        : blueprint.type === 'PipeCondition'
          ? [...Object.values(blueprint.outcomes), blueprint.default_outcome]
          : blueprint.type === 'PipeBatch'
            ? [blueprint.branch_pipe_code]
            : [];
  return refs.some((ref) => {
    if (ref === 'fail' || ref === 'continue') return false;
    const target = library.findPipe(ref, pipe.domain_code);
    return target ? callsAbsentPackage(library, target, seen) : ref.includes('->');
  });
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
    if (callsAbsentPackage(library, pipe)) {
      validatedPipes.push({ pipe_ref: pipe.ref, status: 'SKIPPED' });
      continue;
    }
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
