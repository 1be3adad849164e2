/**
 * The sample bundles of the reference corpus for suites that also run without it (the fuzz campaign): they add the
 * corpus to bundles of their own where `../shared/corpus` is beside the repository, and say so where it is not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SAMPLES = new URL('../../../shared/corpus/pipelex-api-samples/', import.meta.url);

/**
 * The texts of the corpus's top-level sample bundles, sorted by file name; `[]` (with a message on stderr naming the
 * missing folder) where the corpus is absent.
 * @param suite - the suite asking, named in the message
 */
export function corpusSamplesIfPresent(suite: string): string[] {
  if (!existsSync(SAMPLES)) {
    process.stderr.write(
      `  ${suite}: ${fileURLToPath(SAMPLES)} is absent; running on the project's own bundles only.\n`,
    );
    return [];
  }
  return readdirSync(SAMPLES)
    .filter((file) => file.endsWith('.mthds'))
    .sort()
    .map((file) => readFileSync(new URL(file, SAMPLES), 'utf8'));
}
