/**
 * Access to the shared corpus of real bundles (`../shared/corpus` beside the repository), used as-is by tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { BundleSource } from '../../shared/mthds/index.js';

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

/**
 * The `.mthds` files of `pipelex-api-samples` (top level only, so without `invalid/`), sorted.
 * @returns file names, e.g. `hello_greeting.mthds`
 */
export function corpusSampleFiles(): string[] {
  return readdirSync(new URL('pipelex-api-samples/', CORPUS))
    .filter((file) => file.endsWith('.mthds'))
    .sort();
}

/** The bundle of the documents package the other published methods call (`documents->`), under `corpus/methods/`. */
export const DOCUMENTS_BUNDLE = 'documents/documents.mthds';

/**
 * Every bundle of the published methods (`corpus/methods/<method>/*.mthds`, `_`-prefixed folders skipped), sorted.
 * @returns paths under `corpus/methods/`, e.g. `doc_summarizer/bundle.mthds`
 */
export function corpusMethodBundles(): string[] {
  const methods = new URL('methods/', CORPUS);
  return readdirSync(methods, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .flatMap((entry) =>
      readdirSync(new URL(`${entry.name}/`, methods))
        .filter((file) => file.endsWith('.mthds'))
        .map((file) => `${entry.name}/${file}`),
    )
    .sort();
}

/**
 * The files of a published method's closure: its bundle, plus {@link DOCUMENTS_BUNDLE} when it calls the documents
 * package (a method spanning files). Each file's `source` is its path under `corpus/methods/`.
 * @param bundle - a path of {@link corpusMethodBundles}
 */
export function methodClosureFiles(bundle: string): BundleSource[] {
  const files = [{ content: corpusText(`methods/${bundle}`), source: bundle }];
  if (bundle !== DOCUMENTS_BUNDLE && files[0]!.content.includes('/documents->'))
    files.push({ content: corpusText(`methods/${DOCUMENTS_BUNDLE}`), source: DOCUMENTS_BUNDLE });
  return files;
}
