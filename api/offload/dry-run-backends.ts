/**
 * The backends of the dry-run sweeps the diagnostics threads run (`/v1/validate`, `/v1/build/runner`): mock inference
 * and extraction, the document printer, random ids and the clock.
 *
 * The mock backends are imported from their modules, not from the `shared/inference` barrel: the barrel loads every
 * provider SDK, seconds of start-up for each new thread (and a thread stopped at its budget is replaced).
 */
import { LibraryFiles } from '../../shared/bundles/index.js';
import { createDocumentPrinter } from '../../shared/docgen/index.js';
import { createMockExtractor } from '../../shared/inference/extraction/mock-extractor.js';
import { createMockBackend } from '../../shared/inference/mock-backend.js';
import { mockValuesForSchema } from '../../shared/inference/mock-value.js';
import { randomIdSource, type SweepDeps } from '../../shared/runtime/index.js';

/** The printer of the dry-run sweeps (stateless). */
const DOCUMENT_PRINTER = createDocumentPrinter();

/**
 * The mock backends of a dry-run sweep, with the document printer (its template checkers only run in a dry run) and,
 * for a fetched package, its files.
 * @param libraryFiles - a fetched package's files by bundle-relative path (PipeDocGen `template_file`), if any
 */
export function sweepDeps(libraryFiles?: ReadonlyMap<string, Uint8Array>): SweepDeps {
  return {
    deps: {
      inference: createMockBackend(),
      extractor: createMockExtractor(),
      printer: DOCUMENT_PRINTER,
      ...(libraryFiles && libraryFiles.size > 0 ? { libraryFiles: new LibraryFiles(libraryFiles) } : {}),
      ids: randomIdSource(),
      now: Date.now,
    },
    dryRun: { mockValues: mockValuesForSchema },
  };
}
