/**
 * Test harness of the rule suites: run ONE rule over bundle texts, with the library built as the loader builds it (the
 * other rules do not run), and small builders of bundle texts.
 */
import type { ValidationErrorItem } from '../../../../shared/errors/index.js';
import { buildLibrary } from '../../../../shared/mthds/library/build-library.js';
import type { LoadedBundle } from '../../../../shared/mthds/library/library.js';
import { checkBlueprint } from '../../../../shared/mthds/parse/check-blueprint.js';
import { parseToml } from '../../../../shared/mthds/parse/parse-toml.js';
import type { Rule, ValidationMode } from '../../../../shared/mthds/rules/rule.js';

/** The `source` of the i-th bundle given to {@link runRule} (1-based). */
const sourceOf = (index: number): string => `bundle-${index}.mthds`;

/**
 * Parse bundle texts into loaded bundles.
 * @param texts - one text or several (sources `bundle-1.mthds`, `bundle-2.mthds`, …)
 * @throws Error when a text is not a well-formed bundle (a broken fixture)
 */
export function loadedBundles(texts: string | readonly string[]): LoadedBundle[] {
  return (typeof texts === 'string' ? [texts] : texts).map((content, index) => {
    const source = sourceOf(index + 1);
    const checked = checkBlueprint(parseToml(content, source), source);
    if (!checked.blueprint) throw new Error(`fixture is not a bundle: ${JSON.stringify(checked.items)}`);
    return { blueprint: checked.blueprint, source, content };
  });
}

/**
 * Run one rule.
 * @param rule - the rule under test
 * @param texts - the bundle texts
 * @param mode - the validation mode
 */
export function runRule(
  rule: Rule,
  texts: string | readonly string[],
  mode: ValidationMode = 'compat',
): ValidationErrorItem[] {
  const bundles = loadedBundles(texts);
  return rule.check({ bundles, library: buildLibrary(bundles), mode });
}

/**
 * A bundle text: a header for `domain` followed by the given tables.
 * @param domain - the domain code
 * @param body - TOML tables
 */
export function bundle(domain: string, body: string): string {
  return `domain = "${domain}"\n\n${body}`;
}

/**
 * Run one rule over each text on its own (each in a library of its own), concatenating the items.
 * @param rule - the rule under test
 * @param texts - independent bundle texts
 * @param mode - the validation mode
 */
export function runEach(rule: Rule, texts: readonly string[], mode: ValidationMode = 'compat'): ValidationErrorItem[] {
  return texts.flatMap((text) => runRule(rule, text, mode));
}
