/**
 * The verdict of `POST /v1/validate` (spec §2.5, §4.5; API-CONTRACT.md §3.7, §4.3): a `ValidReport` with the
 * library's static artefacts, or an `InvalidReport` with the validation items.
 *
 * After static validation, the dry-run sweep runs every pipe on mock inputs (`validated_pipes`); a failing pipe makes
 * the verdict invalid with `dry_run` items. `graph_spec` is the graph of a dry run of the primary bundle's `main_pipe`
 * (null without one, or when that dry run cannot complete, e.g. it calls an absent package).
 */
import type { ValidationErrorItem } from '../errors/index.js';
import { bundleBlueprintForWire, loadLibrary, type BundleSource, type Library, type Multiplicity, type Pipe, type ValidationMode } from '../mthds/index.js';
import { dryRunSweep, type ValidatedPipe } from './dry-run-sweep.js';
import { GraphRecorder, type GraphSpec } from './graph-recorder.js';
import { runPipeline } from './run-pipeline.js';
import { inputForms, outputForms, type PipeInputFormDescriptor, type PipeOutputFormDescriptor } from './form-descriptors.js';
import type { DryRunSupport } from './pipe-job.js';
import type { RuntimeDeps } from './ports.js';

/** Multiplicity as the I/O contracts spell it. */
export type ContractMultiplicity = 'single' | 'variable' | 'fixed';

/** One input of a pipe contract. */
export interface InputContract {
  concept_ref: string;
  presence: 'plain';
  multiplicity: ContractMultiplicity;
  item_count: number | null;
  json_schema: Record<string, unknown>;
}

/** The output of a pipe contract. */
export interface OutputContract {
  concept_ref: string;
  multiplicity: ContractMultiplicity;
  item_count: number | null;
  optional: false;
  json_schema: Record<string, unknown>;
}

/** `pipe_io_contracts` entry, keyed by qualified pipe ref. */
export interface PipeIOContract {
  inputs: Record<string, InputContract>;
  output: OutputContract;
}

/** The valid arm. */
export interface ValidReport {
  is_valid: true;
  bundle_blueprint: Record<string, unknown>;
  pipe_io_contracts: Record<string, PipeIOContract>;
  graph_spec: GraphSpec | null;
  validated_pipes: ValidatedPipe[];
  warnings: ValidationErrorItem[];
  pending_signatures: string[];
  is_runnable: boolean;
  mthds_contents: string[];
  message: string;
  default_pipe_ref: string | null;
  /** Only when `views` asks for `input_form`. */
  input_form?: Record<string, PipeInputFormDescriptor>;
  /** Only when `views` asks for `output_form`. */
  output_form?: Record<string, PipeOutputFormDescriptor>;
}

/** The invalid arm. */
export interface InvalidReport {
  is_valid: false;
  validation_errors: ValidationErrorItem[];
  pending_signatures: [];
  is_runnable: false;
  message: string;
}

function contractMultiplicity(multiplicity: Multiplicity): { multiplicity: ContractMultiplicity; item_count: number | null } {
  if (typeof multiplicity === 'number') return { multiplicity: 'fixed', item_count: multiplicity };
  return { multiplicity: multiplicity, item_count: null };
}

function ioSchema(library: Library, pipe: Pipe, conceptRef: string, multiplicity: Multiplicity): Record<string, unknown> {
  const item = library.contentSchema(library.resolveConcept(conceptRef, pipe.domain_code));
  if (multiplicity === 'single') return item;
  const { $defs, $schema, ...itemBody } = item;
  const list: Record<string, unknown> = { type: 'array', items: itemBody };
  if (typeof multiplicity === 'number') Object.assign(list, { minItems: multiplicity, maxItems: multiplicity });
  if ($schema !== undefined) list['$schema'] = $schema;
  if ($defs !== undefined) list['$defs'] = $defs;
  return list;
}

/**
 * The I/O contract of every pipe, keyed by qualified ref (signatures included).
 * @param library - a valid library
 */
export function pipeIOContracts(library: Library): Record<string, PipeIOContract> {
  const contracts: Record<string, PipeIOContract> = {};
  for (const pipe of [...library.pipes.values()].sort((a, b) => a.ref.localeCompare(b.ref))) {
    const inputs: Record<string, InputContract> = {};
    for (const input of pipe.inputs) {
      inputs[input.name] = {
        concept_ref: input.conceptRef,
        presence: 'plain',
        ...contractMultiplicity(input.multiplicity),
        json_schema: ioSchema(library, pipe, input.conceptRef, input.multiplicity),
      };
    }
    contracts[pipe.ref] = {
      inputs,
      output: {
        concept_ref: pipe.output.conceptRef,
        ...contractMultiplicity(pipe.output.multiplicity),
        optional: false,
        json_schema: ioSchema(library, pipe, pipe.output.conceptRef, pipe.output.multiplicity),
      },
    };
  }
  return contracts;
}

/** What the sweep needs: mock backends and the placeholder source. */
export interface SweepDeps {
  deps: RuntimeDeps;
  dryRun: DryRunSupport;
}

async function mainPipeGraph(library: Library, pipe: Pipe, sweep: SweepDeps): Promise<GraphSpec | null> {
  const { ref } = pipe;
  const recorder = new GraphRecorder();
  const createdAt = new Date(sweep.deps.now()).toISOString();
  try {
    await runPipeline({ library, pipe, inputs: null, pipelineRunId: `graph-${ref}` }, sweep.deps, sweep.dryRun, recorder);
  } catch {
    return null;
  }
  return recorder.toSpec({ domain: pipe.domain_code, main_pipe: pipe.code }, createdAt, `dry-run:${ref}`);
}

function invalid(errors: ValidationErrorItem[], message: string): InvalidReport {
  return { is_valid: false, validation_errors: errors, pending_signatures: [], is_runnable: false, message };
}

/**
 * Validate bundle sources into a verdict: static validation, then the dry-run sweep.
 * @param sources - contents with their logical file names
 * @param sweep - mock backends for the sweep
 * @param options - `allowSignatures`: also mock-run contract-only pipes; `views`: opt-in `input_form` / `output_form`
 *   (unknown tokens are ignored; without a token the member is absent); `mode`: the static rules' mode (compat by
 *   default; docs/language.md "Strict and compat modes"); `defaultPipe`: the pipe a selector-less run would execute
 *   when something other than the bundles names it (a fetched manifest's `main_pipe`, bare or qualified) — it sets
 *   `default_pipe_ref` and the pipe `graph_spec` dry-runs
 * @returns the valid or invalid report; never throws for an invalid bundle
 * @see spec §4.5
 */
export async function validationReport(
  sources: BundleSource[],
  sweep: SweepDeps,
  options: { allowSignatures: boolean; views?: readonly string[]; mode?: ValidationMode; defaultPipe?: string | null },
): Promise<ValidReport | InvalidReport> {
  const loaded = loadLibrary(sources, { mode: options.mode ?? 'compat' });
  if (!loaded.ok) return invalid(loaded.errors, loaded.message);
  const { library } = loaded;
  const swept = await dryRunSweep(library, sweep.deps, sweep.dryRun, options);
  if (swept.errors.length > 0) return invalid(swept.errors, `Dry run error(s): ${swept.errors.map((item) => item.message).join(' | ')}`);
  const primary = library.bundles.find((bundle) => bundle.blueprint.main_pipe !== undefined) ?? library.bundles[0]!;
  const pending = [...library.pipes.values()].filter((pipe) => pipe.type === 'PipeSignature').map((pipe) => pipe.ref).sort();
  const bundleMain = primary.blueprint.main_pipe;
  const main = options.defaultPipe
    ? library.findPipe(options.defaultPipe, primary.blueprint.domain)
    : bundleMain === undefined
      ? undefined
      : library.pipes.get(`${primary.blueprint.domain}.${bundleMain}`);
  const graph = main ? await mainPipeGraph(library, main, sweep) : null;
  const views = new Set(options.views ?? []);
  const report: ValidReport = {
    is_valid: true,
    bundle_blueprint: bundleBlueprintForWire(primary),
    pipe_io_contracts: pipeIOContracts(library),
    graph_spec: graph,
    validated_pipes: swept.validatedPipes,
    warnings: loaded.warnings,
    pending_signatures: pending,
    is_runnable: pending.length === 0,
    mthds_contents: sources.map((source) => source.content),
    message: 'MTHDS content validated successfully',
    default_pipe_ref: main?.ref ?? null,
  };
  if (views.has('input_form')) report.input_form = inputForms(library);
  if (views.has('output_form')) report.output_form = outputForms(library);
  return report;
}
