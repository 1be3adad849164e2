/**
 * Public surface of `shared/codegen`: typed projections of a library's concepts (`/v1/codegen`, spec §4.7) and the
 * build tooling (`/v1/build/inputs|output|runner`, spec §4.8–4.10).
 *
 * Glossary: a *projection* is the library's concept set emitted for one *target* language; an *artifact* is one
 * generated file, *stamped* with the crate fingerprint, engine version, projection and body hash; the *lock* records
 * the stamping of an artifact set.
 */

export { type EntryPipeSelection, selectEntryPipe } from './entry-pipe.js';
export {
  CODEGEN_TARGETS,
  type CodegenTarget,
  type GeneratedArtifact,
  generateTypes,
  type StampedProjection,
} from './generate-types.js';
export { inputsTemplate, inputsTemplateToml } from './inputs-template.js';
export { type OutputFormat, outputRepresentation } from './output-representation.js';
export { runnerScript } from './runner-script.js';
export { type SelectedPipe, selectPipe } from './select-pipe.js';
export type { FieldType, TypedConcept, TypedField, TypedShape, TypeSet } from './type-model.js';
export { buildTypeSet } from './type-set.js';
