/**
 * Documents and images named by a path inside the submitted bundle: a `url` without a scheme (e.g.
 * `inputs/cv.pdf`, as the corpus's sample inputs write it) is read from the run's library files and handed on as a
 * `data:` URL, so every extractor and provider wire reads it like any other. URLs with a scheme are left as they are.
 *
 * @see docs/runtime.md#pipeextract ("URL, storage URI, or local path"); docs/bundles.md#whole-bundle-transports;
 * docs/concepts.md (`Document.url`)
 */
import { lookup } from 'mime-types';
import { StuffFactoryError } from '../errors/index.js';
import type { RunEnvironment } from './pipe-job.js';
import type { LibraryFilesPort } from './ports.js';

const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * The library files a run's pipes read documents from: none in a dry run, whose mock documents name no file.
 * @param environment - the run environment
 */
export function documentFilesOf(environment: RunEnvironment): LibraryFilesPort | undefined {
  return environment.dryRun ? undefined : environment.deps.libraryFiles;
}

/**
 * The URL to read a document or image from.
 * @param url - the content's `url`
 * @param mimeType - the content's `mime_type`, if any (else guessed from the file extension)
 * @param files - the run's library files; without them the URL is returned unchanged
 * @param pipeCode - the pipe reading it, for the error message
 * @returns `url` itself, or a `data:` URL of the library file it names
 * @throws StuffFactoryError (422) when the path names no file of the submitted bundle
 */
export function libraryDocumentUrl(
  url: string,
  mimeType: string | null | undefined,
  files: LibraryFilesPort | undefined,
  pipeCode: string,
): string {
  if (!files || HAS_SCHEME.test(url)) return url;
  const bytes = files.read(url);
  if (!bytes) {
    const known = files.paths();
    throw new StuffFactoryError(
      `Pipe '${pipeCode}': the document '${url.slice(0, 200)}' names no file of the submitted bundle (${known.length === 0 ? 'it has no files besides its .mthds' : `its files: ${known.slice(0, 20).join(', ')}`}).`,
    );
  }
  const type = mimeType || lookup(url) || 'application/octet-stream';
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}
