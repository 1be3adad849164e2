/**
 * Public surface of `shared/mthds`: the MTHDS language core.
 *
 * Glossary: a *bundle* is one `.mthds` file (a domain, its concepts and its pipes); its *blueprint* is the bundle as
 * written, typed (nothing resolved); the *library* is every concept and pipe of the bundles of one request, validated,
 * with references resolved. Stages: parse (S1 TOML, S2 schemas) → validate (rules S2–S5b → items) → library.
 *
 * @see docs/bundle-format.md, docs/concepts.md, docs/language.md, docs/namespaces.md, docs/rules.md, spec §2.3,
 * §2.5–2.6
 */

export {
  buildCrate,
  type Crate,
  type CrateConcept,
  type CrateDomain,
  type CrateField,
  type CratePipe,
  type CrateSemantics,
  compareCodeUnits,
} from './crate/index.js';
export { deriveBinding, pathRoot } from './library/binding-derivation.js';
export { buildLibrary } from './library/build-library.js';
export type { Concept, ConceptField, Domain, Pipe, PipeIO } from './library/concept.js';
export {
  chooseDocGenEngine,
  DOC_GEN_FORMATS,
  type DocGenEngineChoice,
  type DocGenFormat,
  type DocGenFormatFacts,
  type DocGenSource,
  docGenSource,
  templateFileCandidates,
} from './library/doc-gen.js';
export {
  isMultiJudge,
  type JudgeKind,
  type JudgeQuestion,
  judgeQuestions,
  levelParts,
} from './library/judge-questions.js';
export type { Library, LoadedBundle } from './library/library.js';
export { NATIVE_CONCEPTS } from './library/natives.js';
export { type CombinationFit, parallelCombinationFit } from './library/parallel-combination.js';
export { type BundleSource, type LibraryLoadResult, type LoadOptions, loadLibrary } from './load-library.js';
export {
  type CategoryReferences,
  type ModelCategoryName,
  type ModelInputs,
  type ModelReferenceCatalog,
  type ModelReferenceKind,
  type ParsedModelReference,
  parseModelReference,
} from './model-references.js';
export type { BundleBlueprint } from './parse/blueprint.js';
export type { ConceptBlueprint, ConceptFieldBlueprint } from './parse/concept-blueprint.js';
export type {
  ExtractSetting,
  ImgGenSetting,
  LLMSetting,
  ModelReference,
  SearchSetting,
} from './parse/model-settings.js';
export { parseBundle } from './parse/parse-bundle.js';
export type {
  PipeBatchBlueprint,
  PipeBlueprint,
  PipeComposeBlueprint,
  PipeConditionBlueprint,
  PipeDocGenBlueprint,
  PipeExtractBlueprint,
  PipeFuncBlueprint,
  PipeImgGenBlueprint,
  PipeJudgeBlueprint,
  PipeLLMBlueprint,
  PipeParallelBlueprint,
  PipeSearchBlueprint,
  PipeSequenceBlueprint,
  PipeSignatureBlueprint,
  PipeStructureBlueprint,
  PipeType,
} from './parse/pipe-blueprints.js';
export type { BindingStepBlueprint, SubPipeBlueprint } from './parse/sequence-steps.js';
export { isBindingStep, pipeSteps } from './parse/sequence-steps.js';
export type { ConstructValue, TemplateBlueprint } from './parse/template-blueprint.js';
export {
  type ConceptRefParts,
  MAX_MULTIPLICITY,
  type Multiplicity,
  type PipeRefParts,
  type Presence,
  type PresenceSpec,
  parseConceptRef,
  parsePipeRef,
  splitPresence,
  stripMultiplicity,
} from './references.js';
export { type LiftablePipe, liftablePipes } from './rules/data-flow/presence-flow.js';
export type { PackageExports, ValidationMode } from './rules/index.js';
