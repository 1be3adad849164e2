/**
 * The verdict of `POST /v1/validate` as the wire carries it (spec §2.5, §4.5; docs/api.md#post-v1validate,
 * docs/api.md#valid-report): a
 * `ValidReport` with the library's static artefacts, or an `InvalidReport` with the validation items. The verdict
 * itself (static validation, the dry-run sweep, the default pipe's graph) is the runtime's `libraryVerdict`.
 */
import type { ValidationErrorItem } from '../errors/index.js';
import {
  type BundleSource,
  type Concept,
  type Library,
  type LiftablePipe,
  liftablePipes,
  type ModelReferenceCatalog,
  type Multiplicity,
  type PackageExports,
  type Presence,
  type ValidationMode,
} from '../mthds/index.js';
import { libraryVerdict, type SweepDeps, type ValidatedPipe } from '../runtime/index.js';
import { bundleBlueprintForWire } from './bundle-blueprint.js';
import { inputContractSchema, outputContractSchema } from './contract-schema.js';
import {
  inputForms,
  outputForms,
  type PipeInputFormDescriptor,
  type PipeOutputFormDescriptor,
} from './form-descriptors.js';
import type { GraphSpec } from './graph-shapes.js';
import { graphSpec } from './graph-spec.js';

/** Multiplicity as the input contracts spell it. */
export type ContractMultiplicity = 'single' | 'variable' | 'fixed';

/**
 * Multiplicity as the output contract spells it: the reference's `IOMultiplicity`, where any list output, of a
 * variable or a fixed count, is `variable` (the count rides `item_count`).
 */
export type OutputMultiplicity = 'single' | 'variable';

/**
 * One input of a pipe contract; `json_schema` as docs/forms.md#io-contracts writes it. `optional` is the 0.16
 * member (true for `X?`), `presence` the newer reference's three-valued one
 * (docs/language.md#optionality-presence-markers-and-absences).
 */
export interface InputContract {
  concept_ref: string;
  optional: boolean;
  presence: Presence;
  multiplicity: ContractMultiplicity;
  item_count: number | null;
  json_schema: Record<string, unknown>;
}

/** The output of a pipe contract (the reference's `PipeOutputContract`, plus `item_count` and `json_schema`). */
export interface OutputContract {
  concept_ref: string;
  multiplicity: OutputMultiplicity;
  /** N for an `X[N]` output, else null. */
  item_count: number | null;
  /** True for an `X?` output (docs/language.md#optionality-presence-markers-and-absences). */
  optional: boolean;
  /** One content item, or for a list output the list content `ListContent[<def>]` (docs/forms.md). */
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
  /**
   * The pipes a run may skip because a value they need plainly may be absent
   * (docs/language.md#optionality-presence-markers-and-absences).
   */
  liftable_pipes: LiftablePipe[];
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

function contractMultiplicity(multiplicity: Multiplicity): {
  multiplicity: ContractMultiplicity;
  item_count: number | null;
} {
  if (typeof multiplicity === 'number') return { multiplicity: 'fixed', item_count: multiplicity };
  return { multiplicity: multiplicity, item_count: null };
}

function outputMultiplicity(multiplicity: Multiplicity): {
  multiplicity: OutputMultiplicity;
  item_count: number | null;
} {
  if (typeof multiplicity === 'number') return { multiplicity: 'variable', item_count: multiplicity };
  return { multiplicity: multiplicity, item_count: null };
}

/**
 * The contract schemas of one report, each built once: a schema is a function of the concept, the multiplicity and
 * the side (input or output), and a library's pipes share a few concepts. Contracts of the same concept and
 * multiplicity hold the same (never mutated) schema object, which serialises as a copy would.
 */
class ContractSchemas {
  private readonly built = new Map<string, Record<string, unknown>>();

  constructor(private readonly library: Library) {}

  input(concept: Concept, multiplicity: Multiplicity): Record<string, unknown> {
    return this.once(`input|${multiplicity}|${concept.ref}`, () =>
      inputContractSchema(this.library, concept, multiplicity),
    );
  }

  output(concept: Concept, multiplicity: Multiplicity): Record<string, unknown> {
    return this.once(`output|${multiplicity}|${concept.ref}`, () =>
      outputContractSchema(this.library, concept, multiplicity),
    );
  }

  private once(key: string, build: () => Record<string, unknown>): Record<string, unknown> {
    let schema = this.built.get(key);
    if (!schema) {
      schema = build();
      this.built.set(key, schema);
    }
    return schema;
  }
}

/**
 * The I/O contract of every pipe, keyed by qualified ref (signatures included).
 * @param library - a valid library
 */
export function pipeIOContracts(library: Library): Record<string, PipeIOContract> {
  const contracts: Record<string, PipeIOContract> = {};
  const schemas = new ContractSchemas(library);
  for (const pipe of [...library.pipes.values()].sort((a, b) => a.ref.localeCompare(b.ref))) {
    const inputs: Record<string, InputContract> = {};
    for (const input of pipe.inputs) {
      inputs[input.name] = {
        concept_ref: input.conceptRef,
        optional: input.presence === 'optional',
        presence: input.presence,
        ...contractMultiplicity(input.multiplicity),
        json_schema: schemas.input(library.resolveConcept(input.conceptRef, pipe.domain_code), input.multiplicity),
      };
    }
    contracts[pipe.ref] = {
      inputs,
      output: {
        concept_ref: pipe.output.conceptRef,
        ...outputMultiplicity(pipe.output.multiplicity),
        optional: pipe.output.presence === 'optional',
        json_schema: schemas.output(
          library.resolveConcept(pipe.output.conceptRef, pipe.domain_code),
          pipe.output.multiplicity,
        ),
      },
    };
  }
  return contracts;
}

function invalid(errors: ValidationErrorItem[], message: string): InvalidReport {
  return { is_valid: false, validation_errors: errors, pending_signatures: [], is_runnable: false, message };
}

/**
 * Validate bundle sources into the report of `POST /v1/validate`.
 * @param sources - contents with their logical file names
 * @param sweep - mock backends for the sweep
 * @param options - `allowSignatures`: also mock-run contract-only pipes; `views`: opt-in `input_form` / `output_form`
 *   (unknown tokens are ignored; without a token the member is absent); `mode`: the static rules' mode (compat by
 *   default; docs/language.md#strict-and-compat-modes); `defaultPipe`: the pipe a selector-less run would execute
 *   when something other than the bundles names it (a fetched manifest's `main_pipe`, bare or qualified) — it sets
 *   `default_pipe_ref` and the pipe `graph_spec` dry-runs; `models`: the serving model deck's names (an unknown
 *   `$preset`, `@alias` or `~waterfall` makes the report invalid; unchecked when absent); `bundleFiles`: where the
 *   bundles came from, for PipeDocGen `template_file` (`LoadOptions.bundleFiles`); `exports`: the fetched packages'
 *   `[exports]` (`LoadOptions.exports`)
 * @returns the valid or invalid report; never throws for an invalid bundle
 * @see spec §4.5
 */
export async function validationReport(
  sources: BundleSource[],
  sweep: SweepDeps,
  options: {
    allowSignatures: boolean;
    views?: readonly string[];
    mode?: ValidationMode;
    defaultPipe?: string | null;
    models?: ModelReferenceCatalog;
    bundleFiles?: readonly string[] | null;
    exports?: PackageExports;
  },
): Promise<ValidReport | InvalidReport> {
  const verdict = await libraryVerdict(sources, sweep, options);
  if (!verdict.ok) return invalid(verdict.errors, verdict.message);
  const views = new Set(options.views ?? []);
  const report: ValidReport = {
    is_valid: true,
    bundle_blueprint: bundleBlueprintForWire(verdict.primary),
    pipe_io_contracts: pipeIOContracts(verdict.library),
    liftable_pipes: liftablePipes(verdict.library),
    graph_spec: verdict.graph && graphSpec(verdict.graph, verdict.library),
    validated_pipes: verdict.validatedPipes,
    warnings: verdict.warnings,
    pending_signatures: verdict.pendingSignatures,
    is_runnable: verdict.pendingSignatures.length === 0,
    mthds_contents: sources.map((source) => source.content),
    message: 'MTHDS content validated successfully',
    default_pipe_ref: verdict.defaultPipe?.ref ?? null,
  };
  if (views.has('input_form')) report.input_form = inputForms(verdict.library);
  if (views.has('output_form')) report.output_form = outputForms(verdict.library);
  return report;
}
