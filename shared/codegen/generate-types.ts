/**
 * The `types` projection of `POST /v1/codegen` (spec §4.7; docs/codegen.md#post-v1codegen,
 * docs/codegen.md#stamp-and-lock): the library's concept set
 * emitted for one target, each artifact stamped with the fingerprint of the library's crate (the one `/v1/resolve`
 * answers), plus the lock recording the stamping. The same library gives the same
 * bytes whatever the order of its submitted files.
 */
import { buildCrate, type Library } from '../mthds/index.js';
import { IMPLEMENTATION_VERSION } from '../version.js';
import { emitPython, PYTHON_PATHS } from './emit-python.js';
import { emitTsZod, TS_ZOD_PATH } from './emit-ts-zod.js';
import { encodeLock, LOCK_FILENAME } from './lock.js';
import { applyStamp } from './stamp.js';
import type { TypeSet } from './type-model.js';
import { buildTypeSet } from './type-set.js';

/** The codegen targets (spec §4.7). */
export const CODEGEN_TARGETS = ['ts-zod', 'python-pydantic', 'python-structures'] as const;
/** One codegen target. */
export type CodegenTarget = (typeof CODEGEN_TARGETS)[number];

/** A generated file: its relative path and its full stamped text (write verbatim). */
export interface GeneratedArtifact {
  path: string;
  content: string;
}

/** A stamped artifact set with its lock. */
export interface StampedProjection {
  crate_fingerprint: string;
  engine_version: string;
  artifacts: GeneratedArtifact[];
  lock: string;
  lock_filename: string;
}

/**
 * Emit, stamp and lock the `types` projection of a library.
 * @param library - a validated library
 * @param target - the projection target
 * @param types - the library's type model when the caller already built it (`/v1/build/runner`); built here otherwise
 * @returns the artifacts (one file: `types.ts`, `models.py` or `structures.py`), the lock text and its file name, the
 *   crate fingerprint and engine version written in both
 * @see spec §4.7 rules 2–4, docs/codegen.md#stamp-and-lock
 */
export function generateTypes(
  library: Library,
  target: CodegenTarget,
  types: TypeSet = buildTypeSet(library),
): StampedProjection {
  const fingerprint = buildCrate(library).fingerprint;
  const bodies = [
    target === 'ts-zod'
      ? { path: TS_ZOD_PATH, body: emitTsZod(types) }
      : { path: PYTHON_PATHS[target], body: emitPython(types, target) },
  ];
  const facts = {
    crateFingerprint: fingerprint,
    engineVersion: IMPLEMENTATION_VERSION,
    projection: `types / ${target}`,
    options: {},
  };
  return {
    crate_fingerprint: fingerprint,
    engine_version: IMPLEMENTATION_VERSION,
    artifacts: bodies.map(({ path, body }) => ({ path, content: applyStamp(path, body, facts) })),
    lock: encodeLock(fingerprint, IMPLEMENTATION_VERSION, bodies),
    lock_filename: LOCK_FILENAME,
  };
}
