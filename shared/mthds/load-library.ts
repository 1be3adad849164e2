/**
 * Loading the bundles of one request into a validated library: parse (S1), blueprint schema (S2), structure rules
 * (S2–S3), then reference, pipe and data-flow rules (S4–S5b). Every problem becomes a validation item; the verdict
 * is invalid when any item is an error.
 *
 * @see spec §2.5–2.6, LANGUAGE.md §6
 */
import { MthdsParserError, type ValidationErrorItem } from '../errors/index.js';
import { checkBlueprint } from './blueprint-check.js';
import { buildLibrary } from './build-library.js';
import type { Library, LoadedBundle } from './library.js';
import { parseToml } from './parse-bundle.js';
import { LIBRARY_RULES, STRUCTURE_RULES, type Rule, type RuleContext, type ValidationMode } from './rules/index.js';

/** One submitted bundle text and its logical file name. */
export interface BundleSource {
  content: string;
  source: string | null;
}

/** Options of {@link loadLibrary}. */
export interface LoadOptions {
  /** Default `compat` (what published bundles rely on); `strict` applies the standard as written. */
  mode?: ValidationMode;
}

/** The verdict of loading. */
export type LibraryLoadResult =
  | { ok: true; library: Library; warnings: ValidationErrorItem[] }
  | { ok: false; errors: ValidationErrorItem[]; message: string };

const LISTED_IN_MESSAGE = 5;

function invalid(errors: ValidationErrorItem[]): LibraryLoadResult {
  const listed = errors.slice(0, LISTED_IN_MESSAGE).map((item) => item.message);
  const more = errors.length > LISTED_IN_MESSAGE ? ` (and ${errors.length - LISTED_IN_MESSAGE} more)` : '';
  return { ok: false, errors, message: `Validation error(s): ${listed.join(' | ')}${more}` };
}

function runRules(rules: readonly Rule[], context: RuleContext): { errors: ValidationErrorItem[]; warnings: ValidationErrorItem[] } {
  const errors: ValidationErrorItem[] = [];
  const warnings: ValidationErrorItem[] = [];
  for (const rule of rules) (rule.severity === 'error' ? errors : warnings).push(...rule.check(context));
  return { errors, warnings };
}

/**
 * Load and validate bundles as one library.
 * @param sources - bundle texts with their logical names (`mthds_sources[i]`, or null)
 * @param options - validation mode
 * @returns the library and its warnings, or every error item (never an empty list)
 */
export function loadLibrary(sources: BundleSource[], options: LoadOptions = {}): LibraryLoadResult {
  const mode = options.mode ?? 'compat';
  const errors: ValidationErrorItem[] = [];
  const bundles: LoadedBundle[] = [];
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
    if (checked.blueprint) bundles.push({ blueprint: checked.blueprint, source, content });
    else errors.push(...checked.items);
  }
  if (sources.length === 0) errors.push({ category: 'blueprint_validation', message: 'No bundle was given: send at least one .mthds content.' });
  if (errors.length > 0) return invalid(errors);
  const library = buildLibrary(bundles);
  const context: RuleContext = { bundles, library, mode };
  const structure = runRules(STRUCTURE_RULES, context);
  if (structure.errors.length > 0) return invalid(structure.errors);
  const checks = runRules(LIBRARY_RULES, context);
  if (checks.errors.length > 0) return invalid(checks.errors);
  return { ok: true, library, warnings: [...structure.warnings, ...checks.warnings] };
}
