/**
 * The shape of a static validation rule (CONTRIBUTING.md#5-one-rule-per-module): one rule per module under
 * `rules/<stage>/`, each stage's
 * `index.ts` listing its rules in order of enforcement.
 *
 * @see docs/rules.md
 */
import type { ValidationErrorCategory, ValidationErrorItem } from '../../errors/index.js';
import type { LoadedBundle } from '../library/library.js';
import type { MthdsLibrary } from '../library/mthds-library.js';
import type { ModelReferenceCatalog } from '../model-references.js';
import type { ValidationErrorType } from './error-types.js';

/**
 * `strict`: the standard as written. `compat` (the default): also what published bundles rely on
 * (docs/concepts.md#structure-fields
 * `type = "text"` with `choices`, §4.2 multiplicity leniency, §5.6 bare pipe codes across domains).
 */
export type ValidationMode = 'strict' | 'compat';

/** A stage of docs/rules.md that has rules (S1 is the TOML parse, done before any rule). */
export type RuleStage = 'S2' | 'S3' | 'S4' | 'S5' | 'S5b';

/** What every rule can read. */
export interface RuleContext {
  /** The bundles of the request, in submitted order, as written. */
  readonly bundles: readonly LoadedBundle[];
  /**
   * The library built from the bundles; references that do not resolve are kept as written, for the rules to report.
   */
  readonly library: MthdsLibrary;
  readonly mode: ValidationMode;
  /** The names the serving model deck knows; without it, `model` references are not checked (`S4-model-references`). */
  readonly models?: ModelReferenceCatalog;
  /**
   * The pipes each package domain exports, for the domains of loaded packages whose manifest has `[exports]` (domain
   * path → exported pipe codes); a domain absent here exports everything (`S5-unexported-pipe-refs`).
   */
  readonly exports?: PackageExports;
  /**
   * Where the bundles came from, for the rules that read their files (PipeDocGen `template_file`): the bundle-relative
   * paths of the files beside the `.mthds` (a zip, a file map, a method_ref's directory), `null` when the bundles were
   * sent as text (no directory), absent when the caller does not say (those rules then do not check).
   */
  readonly bundleFiles?: readonly string[] | null;
  /**
   * The TOML data each bundle was parsed from (S1), by bundle, when the loader has it: the rules that read what the
   * blueprint drops (an expanded input slot's `hints`) read it instead of parsing the bundle's text again. A bundle
   * absent here is parsed from its `content`.
   */
  readonly tables?: ReadonlyMap<LoadedBundle, Readonly<Record<string, unknown>>>;
}

/**
 * Exported pipe codes by domain path (`METHODS.toml` `[exports]` tables, flattened and merged; docs/packages.md). Plain
 * data, so a fetched package's exports cross threads and queues as they are.
 */
export type PackageExports = Readonly<Record<string, readonly string[]>>;

/** One static rule. */
export interface Rule {
  /**
   * Stable id: the stage and a slug (`S4-llm-prompt-variables`), or the data-flow id of docs/rules.md#data-flow-s5b
   * (`V-C1`).
   */
  readonly id: string;
  readonly stage: RuleStage;
  /** `error` items make the verdict invalid; `warning` items are advisories of a valid verdict. */
  readonly severity: 'error' | 'warning';
  /** The category of the items the rule emits (spec §2.6). */
  readonly category: Extract<ValidationErrorCategory, 'blueprint_validation' | 'pipe_validation'>;
  /** The `error_type` of the items the rule emits. */
  readonly error_type?: ValidationErrorType;
  /** The rule's entry in the rule reference: `docs/rules.md#<id lower-cased>`, e.g. `docs/rules.md#v-m1-compat`. */
  readonly see: string;
  /**
   * Run the rule.
   * @param context - the bundles, the library and the mode
   * @returns one item per problem found (empty when the rule holds)
   */
  check(context: RuleContext): ValidationErrorItem[];
}
