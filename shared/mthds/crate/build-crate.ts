/**
 * Building the crate of a validated library (spec §2.8, §4.6; docs/crate.md#crate-shape).
 */
import type { Library } from '../library/library.js';
import { compact, sortedMap } from './compact.js';
import { type Crate, type CrateConcept, type CratePipe, MTHDS_STANDARD_VERSION } from './crate.js';
import { conceptSource, crateConcept, crateNative, nativeCodesOf } from './crate-concepts.js';
import { cratePipe } from './crate-pipes.js';
import { crateFingerprint } from './fingerprint.js';

function conceptRefsOf(concepts: Iterable<CrateConcept>, pipes: Iterable<CratePipe>): string[] {
  const refs: string[] = [];
  for (const concept of concepts) {
    if (concept.refines !== undefined) refs.push(concept.refines);
    for (const field of Object.values(concept.structure ?? {}))
      refs.push(...[field.concept_ref, field.item_concept_ref].filter((ref) => ref !== undefined));
  }
  for (const pipe of pipes) {
    refs.push(pipe.output, ...Object.values(pipe.inputs ?? {}));
    if (pipe.type === 'PipeParallel' && pipe.combined_output !== undefined) refs.push(pipe.combined_output);
  }
  return refs;
}

/**
 * Build the crate of a library: every declared concept and pipe with its references qualified, refinement flattened,
 * the natives it references materialized as `native.<Code>`, top-level maps key-sorted, absent members dropped, and
 * the fingerprint of `{concepts, pipes, domains}`. The result does not depend on the order of the library's files
 * (except where the header facts of a domain split across files disagree: the first file's win, as in the library).
 * @param library - a library returned by `loadLibrary`
 * @returns the crate, JSON-serialisable as is (the wire form of `POST /v1/resolve`)
 * @see spec §2.8, §4.6; docs/crate.md#crate-shape; docs/crate.md
 * @example
 * const loaded = loadLibrary(files);
 * if (loaded.ok) console.log(buildCrate(loaded.library).fingerprint);
 */
export function buildCrate(library: Library): Crate {
  const declared = [...library.concepts.values()].filter((concept) => !concept.isNative);
  const declaredEntries = declared.map((concept) => [concept.ref, crateConcept(library, concept)] as const);
  const pipeEntries = [...library.pipes.values()].map((pipe) => [pipe.ref, cratePipe(library, pipe)] as const);
  const referenced = nativeCodesOf(
    conceptRefsOf(
      declaredEntries.map(([, entry]) => entry),
      pipeEntries.map(([, entry]) => entry),
    ),
  );
  const nativeEntries = [...referenced].flatMap((code) => {
    const entry = crateNative(code);
    return entry ? [[`native.${code}`, entry] as const] : [];
  });
  const concepts = sortedMap([...declaredEntries, ...nativeEntries]);
  const pipes = sortedMap(pipeEntries);
  const domains = sortedMap(
    [...library.domains.values()].map((domain) => [domain.code, compact({ ...domain })] as const),
  );
  const labels = [
    ...declared.map((concept) => [concept.ref, conceptSource(library, concept)] as const),
    ...[...library.pipes.values()].map((pipe) => [pipe.ref, pipe.source] as const),
  ];
  const sources = labels.flatMap(([ref, source]) => (source === null ? [] : [[ref, source] as const]));
  const fingerprint = crateFingerprint({ concepts, pipes, domains });
  return {
    mthds_version: MTHDS_STANDARD_VERSION,
    concepts,
    pipes,
    domains,
    source_map: sortedMap(sources),
    fingerprint,
  };
}
