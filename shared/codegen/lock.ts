/**
 * `codegen.lock` (docs/codegen.md#stamp-and-lock; spec §4.7 rule 4, §9 rule 5): the set-level record of a stamping, a
 * fixed
 * header line then TOML with `crate_fingerprint`, `engine_version` and one `[[artifacts]]` table (`path`,
 * `content_hash`) per artifact, sorted by path.
 */
import { stringify } from 'smol-toml';
import { compareCodeUnits } from '../mthds/index.js';
import { contentHash } from './stamp.js';

/** The file name the lock is written as. */
export const LOCK_FILENAME = 'codegen.lock';

const LOCK_HEADER = '# codegen.lock — generated artifact set (Pipelex codegen). Do not edit by hand.\n\n';

/** One unstamped artifact body, by relative path. */
export interface ArtifactBody {
  /** Relative, `/`-separated, ending in `.py` or `.ts`. */
  path: string;
  body: string;
}

/**
 * The lock text of an artifact set.
 * @param crateFingerprint - the source crate's fingerprint
 * @param engineVersion - the engine version that stamped the artifacts
 * @param artifacts - the artifact bodies (below their stamps); any order
 */
export function encodeLock(
  crateFingerprint: string,
  engineVersion: string,
  artifacts: readonly ArtifactBody[],
): string {
  const entries = [...artifacts]
    .sort((a, b) => compareCodeUnits(a.path, b.path))
    .map((artifact) => ({ path: artifact.path, content_hash: contentHash(artifact.body) }));
  return (
    LOCK_HEADER + stringify({ crate_fingerprint: crateFingerprint, engine_version: engineVersion, artifacts: entries })
  );
}
