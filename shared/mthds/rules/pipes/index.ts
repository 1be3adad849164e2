/**
 * Stage S4 rules (pipe-specific), in order of enforcement: templates first, then operators, then controllers.
 * @see docs/rules.md#pipes-s4
 */
import type { Rule } from '../rule.js';
import { batchItemName } from './batch-item-name.js';
import { batchListName } from './batch-list-name.js';
import { bindingSteps } from './binding-steps.js';
import { composeMode } from './compose-mode.js';
import { composeSingleOutput } from './compose-single-output.js';
import { conditionExpression } from './condition-expression.js';
import { conditionOutcomes } from './condition-outcomes.js';
import { constructFromOrTemplate } from './construct-from-or-template.js';
import { docGenEngine } from './doc-gen-engine.js';
import { docGenFieldPaths } from './doc-gen-field-paths.js';
import { docGenOutput } from './doc-gen-output.js';
import { docGenOutputSingle } from './doc-gen-output-single.js';
import { docGenSource } from './doc-gen-source.js';
import { docGenTemplateFileOrigin } from './doc-gen-template-file-origin.js';
import { docGenTemplateFilePath } from './doc-gen-template-file-path.js';
import { extractInputConcept } from './extract-input-concept.js';
import { extractOutputPages } from './extract-output-pages.js';
import { extractSingleInput } from './extract-single-input.js';
import { funcFunctionName } from './func-function-name.js';
import { imgGenQualitySteps } from './img-gen-quality-steps.js';
import { judgeCriteria } from './judge-criteria.js';
import { judgeInputCapability } from './judge-input-capability.js';
import { judgeInputsUsed } from './judge-inputs-used.js';
import { judgeKindFields } from './judge-kind-fields.js';
import { judgeLevels } from './judge-levels.js';
import { judgeModel } from './judge-model.js';
import { judgeOptions } from './judge-options.js';
import { judgeOutputMulti } from './judge-output-multi.js';
import { judgeOutputSingle } from './judge-output-single.js';
import { judgePrompt } from './judge-prompt.js';
import { judgeQuestionForm } from './judge-question-form.js';
import { judgeQuestionMedia } from './judge-question-media.js';
import { judgeQuestionNames } from './judge-question-names.js';
import { judgeThreshold } from './judge-threshold.js';
import { llmInputsUsed } from './llm-inputs-used.js';
import { llmOutputNotImage } from './llm-output-not-image.js';
import { llmPromptVariables } from './llm-prompt-variables.js';
import { llmReasoningExclusive } from './llm-reasoning-exclusive.js';
import { modelReferences } from './model-references.js';
import { optionalInputUnguarded } from './optional-input-unguarded.js';
import { parallelBranchResults } from './parallel-branch-results.js';
import { parallelCombinedOutput } from './parallel-combined-output.js';
import { parallelOutputConcept } from './parallel-output-concept.js';
import { parallelOutputMode } from './parallel-output-mode.js';
import { searchOutput } from './search-output.js';
import { sequenceSteps } from './sequence-steps.js';
import { structureInputText } from './structure-input-text.js';
import { structureOutputNotText } from './structure-output-not-text.js';
import { structureSingleInput } from './structure-single-input.js';
import { subPipeBatch } from './sub-pipe-batch.js';
import { subPipeOutputOverride } from './sub-pipe-output-override.js';
import { templateBudget } from './template-budget.js';
import { privateNameReads } from './template-private-names.js';
import { templateSyntax } from './template-syntax.js';
import { templateVariables } from './template-variables.js';

/** The S4 rules, in order. */
export const S4_RULES: readonly Rule[] = [
  templateSyntax,
  templateBudget,
  llmPromptVariables,
  llmInputsUsed,
  templateVariables,
  privateNameReads,
  optionalInputUnguarded,
  llmReasoningExclusive,
  llmOutputNotImage,
  funcFunctionName,
  imgGenQualitySteps,
  extractSingleInput,
  extractInputConcept,
  extractOutputPages,
  searchOutput,
  modelReferences,
  structureSingleInput,
  structureInputText,
  structureOutputNotText,
  judgePrompt,
  judgeQuestionForm,
  judgeQuestionNames,
  judgeKindFields,
  judgeOptions,
  judgeLevels,
  judgeCriteria,
  judgeThreshold,
  judgeQuestionMedia,
  judgeInputsUsed,
  judgeOutputSingle,
  judgeOutputMulti,
  judgeModel,
  judgeInputCapability,
  docGenOutput,
  docGenOutputSingle,
  docGenSource,
  docGenTemplateFilePath,
  docGenTemplateFileOrigin,
  docGenEngine,
  docGenFieldPaths,
  composeMode,
  composeSingleOutput,
  constructFromOrTemplate,
  sequenceSteps,
  bindingSteps,
  subPipeOutputOverride,
  subPipeBatch,
  parallelOutputMode,
  parallelBranchResults,
  parallelCombinedOutput,
  parallelOutputConcept,
  conditionExpression,
  conditionOutcomes,
  batchListName,
  batchItemName,
];
