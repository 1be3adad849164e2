/**
 * Public surface of `shared/mthds`: the MTHDS language core.
 *
 * Glossary: a *bundle* is one `.mthds` file (a domain, its concepts and pipes); its *blueprint* is the bundle as
 * written, typed; the *library* is every concept and pipe of the bundles of one request, validated and resolved.
 */
export type {
  BundleBlueprint,
  ConceptBlueprint,
  ConceptFieldBlueprint,
  LLMSetting,
  PipeBatchBlueprint,
  PipeBlueprint,
  PipeComposeBlueprint,
  PipeConditionBlueprint,
  PipeExtractBlueprint,
  PipeFuncBlueprint,
  PipeImgGenBlueprint,
  PipeLLMBlueprint,
  PipeParallelBlueprint,
  PipeSearchBlueprint,
  PipeSequenceBlueprint,
  PipeSignatureBlueprint,
  PipeType,
  SubPipeBlueprint,
} from './blueprint.js';
export type { Concept, ConceptField, Domain, Pipe, PipeIO } from './concept.js';
export { Library, type LoadedBundle } from './library.js';
export { loadLibrary, type BundleSource, type LibraryLoadResult, type LoadOptions } from './load-library.js';
export type { ValidationMode } from './rules/index.js';
export { parseBundle, parseToml } from './parse-bundle.js';
export { parseConceptRef, parsePipeRef, stripMultiplicity, type ConceptRefParts, type Multiplicity, type PipeRefParts } from './references.js';
export { NATIVE_CONCEPTS } from './natives.js';
export { bundleBlueprintForWire } from './bundle-blueprint-wire.js';
