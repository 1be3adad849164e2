/**
 * S4 PipeJudge: a pipe that names no `model` needs a default judgment model in the serving deck (`[judgment]
 * choice_default`); the reference fails at load with `JudgmentModelMissingError`. Without a deck in the rule context
 * nothing is checked. The 0.16 contract has no error type for it: the item is the catch-all `unknown_validation_error`
 * and its message names the reference's error.
 * @see docs/language.md#pipejudge, docs/language.md#model-references-and-the-deck
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeJudge judgment model (`unknown_validation_error`, the reference's `JudgmentModelMissingError`). */
export const judgeModel: Rule = {
  id: 'S4-judge-model',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unknown_validation_error',
  see: 'docs/rules.md#s4-judge-model',
  check: (context) => {
    if (context.models === undefined || context.models.judgment.hasDefault === true) return [];
    return pipesOfType(context, 'PipeJudge')
      .filter((pipe) => pipe.blueprint.model === undefined)
      .map((pipe) =>
        pipeItem(judgeModel, pipe, MESSAGES.judge_model_missing({ pipe: pipe.code }), pipeField(pipe, 'model')),
      );
  },
};
