/**
 * Public surface of `shared/tooling`: the editor tools of one `.mthds` text, lint and format, and the agent tools that
 * write one concept or pipe definition from its JSON spec.
 * @see docs/api.md#post-v1lint, docs/codegen.md#definition-specs
 */
export {
  type ConceptDefinition,
  conceptDefinition,
  type PipeDefinition,
  pipeDefinition,
  SPEC_PIPE_TYPES,
} from './definition-spec.js';
export type { Diagnostic, DiagnosticKind, Range } from './diagnostic.js';
export { type FormatResult, formatMthds, warmFormatter } from './format-mthds.js';
export { FORMAT_OPTIONS, type FormatOptions } from './format-options.js';
export { lintMthds } from './lint-mthds.js';
