/**
 * Loading the bundles of one request into a validated library: parse each text (S1) and check it against the blueprint
 * schemas (S2 schema part), build the library, run the structure rules (S2–S3), then the pipe, reference and data-flow
 * rules (S4–S5b). Every problem becomes a validation item; error items make the verdict invalid, warning items ride
 * along a valid one.
 *
 * @see spec §2.5–2.6, docs/rules.md, docs/api.md#post-v1validate, docs/api.md#validation-items
 */
import { MthdsParserError, type ValidationErrorItem } from '../errors/index.js';
import { buildLibrary } from './library/build-library.js';
import type { Library, LoadedBundle } from './library/library.js';
import { MESSAGES } from './messages.js';
import type { ModelReferenceCatalog } from './model-references.js';
import { checkBlueprint } from './parse/check-blueprint.js';
import { parseToml } from './parse/parse-toml.js';
import {
  LIBRARY_RULES,
  type PackageExports,
  type Rule,
  type RuleContext,
  STRUCTURE_RULES,
  type ValidationMode,
} from './rules/index.js';

/** One submitted bundle text and its logical file name (`mthds_sources[i]`, or null when none was sent). */
export interface BundleSource {
  content: string;
  source: string | null;
}

/** Options of {@link loadLibrary}. */
export interface LoadOptions {
  /**
   * `compat` (what published bundles rely on) or `strict` (the standard as written).
   * @defaultValue 'compat'
   */
  mode?: ValidationMode;
  /**
   * The names the serving model deck knows: a `$preset`, `@alias` or `~waterfall` it lacks is an error at load
   * (`S4-model-references`), so that validation refuses what a run would fail on. Unchecked when absent.
   */
  models?: ModelReferenceCatalog;
  /**
   * The `[exports]` of the loaded packages' manifests (domain path → exported pipe codes): a cross-package reference to
   * a pipe its domain does not export is an error (`S5-unexported-pipe-refs`). Unchecked when absent.
   */
  exports?: PackageExports;
  /**
   * Where the bundles came from, for PipeDocGen's `template_file` (`S4-doc-gen-template-file-origin`): the
   * bundle-relative paths of the files sent beside the `.mthds` (zip, file map, method_ref clone), or `null` for
   * bundles sent as text, which have no directory. Unchecked when absent.
   */
  bundleFiles?: readonly string[] | null;
}

/**
 * The verdict of loading: the library and its warnings, or the error items (never empty) with the caller-facing
 * message (`Validation error(s): …`; a TOML failure's message contains `TOML syntax error`). Each list holds at most
 * {@link MAX_REPORTED_ITEMS} items.
 */
export type LibraryLoadResult =
  | { ok: true; library: Library; warnings: ValidationErrorItem[] }
  | { ok: false; errors: ValidationErrorItem[]; message: string };

/** How many item messages the verdict message quotes. */
const QUOTED_IN_MESSAGE = 5;

/**
 * Most error (or warning) items a verdict carries; the verdict message still counts every error ("(and N more)").
 * Sixteen 1 MiB files can hold millions of faults: listing them all would make a verdict of hundreds of MB.
 * @see docs/api.md#validation-items
 */
const MAX_REPORTED_ITEMS = 1000;

function invalid(errors: ValidationErrorItem[]): LibraryLoadResult {
  const message = MESSAGES.verdict({
    messages: errors.slice(0, QUOTED_IN_MESSAGE).map((item) => item.message),
    more: Math.max(0, errors.length - QUOTED_IN_MESSAGE),
  });
  return { ok: false, errors: errors.slice(0, MAX_REPORTED_ITEMS), message };
}

function runRules(
  rules: readonly Rule[],
  context: RuleContext,
): { errors: ValidationErrorItem[]; warnings: ValidationErrorItem[] } {
  const errors: ValidationErrorItem[] = [];
  const warnings: ValidationErrorItem[] = [];
  for (const rule of rules) appendAll(rule.severity === 'error' ? errors : warnings, rule.check(context));
  return { errors, warnings };
}

/**
 * Append items one by one: `push(...items)` passes one call argument per item and overflows the stack past ~100,000.
 */
function appendAll(target: ValidationErrorItem[], items: readonly ValidationErrorItem[]): void {
  for (const item of items) target.push(item);
}

/**
 * Load and validate the bundles of one request as one library. Bundles sharing a domain merge into one namespace.
 * @param sources - the bundle texts with their logical names, in submitted order
 * @param options - the validation mode, and the model deck's names to check `model` references against
 * @returns `{ok: true, library, warnings}`, or `{ok: false, errors, message}` where each TOML or parse failure is one
 *   `blueprint_validation` item without `source` or `error_type` (spec §2.6 residual), and every other item follows
 *   spec §2.6 (`source` is the bundle's `source`)
 * @see spec §2.5–2.6, docs/rules.md
 * @example
 * const loaded = loadLibrary([{ content: text, source: 'hello.mthds' }]);
 * if (loaded.ok) loaded.library.mainPipe();
 */
export function loadLibrary(sources: readonly BundleSource[], options: LoadOptions = {}): LibraryLoadResult {
  const mode = options.mode ?? 'compat';
  if (sources.length === 0) return invalid([{ category: 'blueprint_validation', message: MESSAGES.no_bundle() }]);
  const errors: ValidationErrorItem[] = [];
  const bundles: LoadedBundle[] = [];
  const tables = new Map<LoadedBundle, Record<string, unknown>>();
  for (const { content, source } of sources) {
    let data: Record<string, unknown>;
    try {
      data = parseToml(content, source);
    } catch (error) {
      if (!(error instanceof MthdsParserError)) throw error;
      errors.push({ category: 'blueprint_validation', message: error.message });
      continue;
    }
    const checked = checkBlueprint(data, source);
    if (checked.blueprint) {
      const bundle: LoadedBundle = { blueprint: checked.blueprint, source, content };
      bundles.push(bundle);
      tables.set(bundle, data);
    } else appendAll(errors, checked.items);
  }
  if (errors.length > 0) return invalid(errors);
  const library = buildLibrary(bundles);
  const context: RuleContext = {
    bundles,
    library,
    mode,
    tables,
    ...(options.models ? { models: options.models } : {}),
    ...(options.exports ? { exports: options.exports } : {}),
    ...(options.bundleFiles === undefined ? {} : { bundleFiles: options.bundleFiles }),
  };
  const structure = runRules(STRUCTURE_RULES, context);
  if (structure.errors.length > 0) return invalid(structure.errors);
  const checks = runRules(LIBRARY_RULES, context);
  if (checks.errors.length > 0) return invalid(checks.errors);
  return { ok: true, library, warnings: [...structure.warnings, ...checks.warnings].slice(0, MAX_REPORTED_ITEMS) };
}
