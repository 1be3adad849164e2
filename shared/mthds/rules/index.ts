/**
 * The static rules, in order of enforcement (LANGUAGE.md §6 stages S2 → S5b). A new rule is one module and one line.
 */
import { batchNames } from './batch-names.js';
import { codeCasing } from './code-casing.js';
import { conceptFields } from './concept-fields.js';
import { conditionExpression } from './condition-expression.js';
import { domainCode } from './domain-code.js';
import { duplicateCodes } from './duplicate-codes.js';
import { llmPromptVariables } from './llm-prompt-variables.js';
import { mainPipeDefined } from './main-pipe-defined.js';
import { nativeRedeclaration } from './native-redeclaration.js';
import { operatorIO } from './operator-io.js';
import { parallelBranches } from './parallel-branches.js';
import { refinementCycles } from './refinement-cycles.js';
import { refinesOrStructure } from './refines-or-structure.js';
import type { Rule } from './rule.js';
import { sequenceInputs } from './sequence-inputs.js';
import { sequenceOutput } from './sequence-output.js';
import { sequenceSteps } from './sequence-steps.js';
import { templateVariablesDeclared } from './template-variables-declared.js';
import { unresolvedConcepts } from './unresolved-concepts.js';
import { unresolvedPipes } from './unresolved-pipes.js';

/** Rules of the bundle structure (S2–S3): they need no resolution. */
export const STRUCTURE_RULES: readonly Rule[] = [
  domainCode,
  mainPipeDefined,
  codeCasing,
  nativeRedeclaration,
  refinesOrStructure,
  conceptFields,
  duplicateCodes,
];

/** Rules of references, pipes and data flow (S4–S5b), run once the structure is sound. */
export const LIBRARY_RULES: readonly Rule[] = [
  unresolvedConcepts,
  unresolvedPipes,
  refinementCycles,
  llmPromptVariables,
  templateVariablesDeclared,
  sequenceSteps,
  parallelBranches,
  conditionExpression,
  batchNames,
  operatorIO,
  sequenceOutput,
  sequenceInputs,
];

export type { Rule, RuleContext, ValidationMode } from './rule.js';
