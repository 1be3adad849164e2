/**
 * Access to the shared corpus of real bundles (`../shared/corpus` beside the repository), used as-is by tests.
 */
import { readFileSync } from 'node:fs';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);

/**
 * Read a corpus file as text.
 * @param relativePath - path under `corpus/`, e.g. `pipelex-api-samples/hello_greeting.mthds`
 */
export function corpusText(relativePath: string): string {
  return readFileSync(new URL(relativePath, CORPUS), 'utf8');
}

/**
 * Read a corpus JSON file.
 * @param relativePath - path under `corpus/`
 */
export function corpusJson(relativePath: string): unknown {
  return JSON.parse(corpusText(relativePath));
}

/**
 * A sample bundle of `pipelex-api-samples`.
 * @param name - file name without `.mthds`, e.g. `hello_greeting` or `invalid/syntax_error`
 */
export function sample(name: string): string {
  return corpusText(`pipelex-api-samples/${name}.mthds`);
}
