/**
 * S4 PipeJudge: exactly one of `question` (single form) and `questions` (multi form); the multi form has at least one
 * question and no kind field (`options`, `levels`, `criteria`, `threshold`) on the pipe itself; no question is empty.
 * @see docs/language.md#pipejudge
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { judgeQuestions } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { PipeJudgeBlueprint } from '../../parse/pipe-blueprints.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

const KIND_FIELDS = ['options', 'levels', 'criteria', 'threshold'] as const;

function problems(pipe: Pipe & { blueprint: PipeJudgeBlueprint }): ValidationErrorItem[] {
  const { blueprint } = pipe;
  const item = (message: string, field: string) => pipeItem(judgeQuestionForm, pipe, message, pipeField(pipe, field));
  const single = blueprint.question !== undefined;
  const multi = blueprint.questions !== undefined;
  if (single === multi)
    return [item(MESSAGES.judge_question_form({ pipe: pipe.code, both: single }), single ? 'questions' : 'question')];
  const items: ValidationErrorItem[] = [];
  if (multi) {
    if (Object.keys(blueprint.questions ?? {}).length === 0)
      items.push(item(MESSAGES.judge_no_questions({ pipe: pipe.code }), 'questions'));
    for (const field of KIND_FIELDS)
      if (blueprint[field] !== undefined)
        items.push(item(MESSAGES.judge_multi_kind_field({ pipe: pipe.code, field }), field));
  }
  for (const question of judgeQuestions(blueprint)) {
    const field = `${question.fieldPrefix}question`;
    if (question.question.trim() === '')
      items.push(item(MESSAGES.judge_question_empty({ pipe: pipe.code, field }), field));
  }
  return items;
}

/** S4 PipeJudge question form (`invalid_pipe_field`). */
export const judgeQuestionForm: Rule = {
  id: 'S4-judge-question-form',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-judge-question-form',
  check: (context) => pipesOfType(context, 'PipeJudge').flatMap(problems),
};
