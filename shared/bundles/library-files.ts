/**
 * The library files of a run: every file of a submitted bundle that is not a `.mthds` (nor `requirements.txt`), held
 * in memory and looked up by bundle-relative path — so a PipeExtract document can name one (`{"url": "inputs/cv.pdf"}`)
 * and nothing outside the bundle can ever be read. This runner writes no temporary library directory.
 *
 * In queue mode the files travel in the run job payload as base64 ({@link LibraryFiles.toPayload}); their size is
 * bounded by `MAX_BUNDLE_TOTAL_KIB`, checked before the run is enqueued.
 *
 * @see docs/bundles.md#whole-bundle-transports; docs/runtime.md#pipeextract (local paths of documents)
 */
import type { LibraryFilesPort } from '../runtime/index.js';
import { normalisedEntryPath } from './entry-name.js';

/** Library files by normalised bundle-relative path. */
export class LibraryFiles implements LibraryFilesPort {
  private readonly files: ReadonlyMap<string, Uint8Array>;

  /** @param files - bytes by normalised bundle-relative path */
  constructor(files: ReadonlyMap<string, Uint8Array>) {
    this.files = files;
  }

  /**
   * Rebuild from a job payload.
   * @param payload - path → base64 bytes, as {@link toPayload} wrote it
   */
  static fromPayload(payload: Readonly<Record<string, string>>): LibraryFiles {
    return new LibraryFiles(
      new Map(Object.entries(payload).map(([path, data]) => [path, new Uint8Array(Buffer.from(data, 'base64'))])),
    );
  }

  /**
   * The bytes at a bundle-relative path (`./` and repeated `/` allowed), or undefined when the bundle has no file
   * there; a path the entry-name rule refuses (absolute, `..` segments, backslashes, …) never matches.
   */
  read(path: string): Uint8Array | undefined {
    const normalised = normalisedEntryPath(path);
    return normalised === undefined ? undefined : this.files.get(normalised);
  }

  /** Every path, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** Path → base64 bytes, for a run job payload. */
  toPayload(): Record<string, string> {
    return Object.fromEntries([...this.files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('base64')]));
  }
}
