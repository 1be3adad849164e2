/**
 * `lint`: every problem an editor can show for one `.mthds` text, offline: TOML syntax, TOML key rules, then the
 * embedded bundle schema. Semantic validation of the library (references, data flow) is `/v1/validate`'s job.
 *
 * @see docs/api.md#post-v1lint, docs/formatting.md
 */
import type { Diagnostic } from './diagnostic.js';
import { schemaDiagnostics } from './schema-diagnostics.js';
import { SourceText } from './source-text.js';
import { keyPaths } from './toml-key-paths.js';
import { checkToml } from './toml-syntax.js';

/**
 * Lint one `.mthds` text.
 * @param content - the text (its size is bounded by the caller)
 * @returns the diagnostics, empty for a clean file: one `syntax` or `semantic` diagnostic when the text is not valid
 *   TOML, else the `schema` diagnostics
 * @example lintMthds('key = ') // → [{ kind: 'syntax', range: { start_offset: 6, start_line: 1, start_col: 7, … }, … }]
 */
export function lintMthds(content: string): Diagnostic[] {
  const text = new SourceText(content);
  const parsed = checkToml(content, text);
  if ('diagnostic' in parsed) return [parsed.diagnostic];
  return schemaDiagnostics(parsed.data, keyPaths(parsed.ast), text);
}
