/**
 * S4 PipeJudge: each key of `questions` is a valid structure field name, since the keys are the fields of the output
 * concept: an identifier (a letter or `_`, then letters, digits, `_`), not a Python keyword, and not a name the
 * generated structure classes reserve (a leading `_`, `model_*`, the legacy `BaseModel` methods).
 * @see docs/language.md#pipejudge, docs/concepts.md#structure-fields
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { fieldNameProblem } from '../structures/field-name.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Python's hard keywords (a field named after one cannot be declared in a generated class). */
const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

function reason(name: string): string | undefined {
  if (!IDENTIFIER.test(name)) return 'a name is a letter, then letters, digits or underscores';
  if (PYTHON_KEYWORDS.has(name)) return `'${name}' is a Python keyword`;
  return fieldNameProblem(name);
}

/** S4 PipeJudge question names (`invalid_pipe_field`). */
export const judgeQuestionNames: Rule = {
  id: 'S4-judge-question-names',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-judge-question-names',
  check: (context) =>
    pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
      Object.keys(pipe.blueprint.questions ?? {}).flatMap((name) => {
        const why = reason(name);
        if (why === undefined) return [];
        const message = MESSAGES.judge_question_name({ pipe: pipe.code, name, reason: why });
        return [pipeItem(judgeQuestionNames, pipe, message, pipeField(pipe, `questions.${name}`))];
      }),
    ),
};
