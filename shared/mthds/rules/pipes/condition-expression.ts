/**
 * S4 PipeCondition: exactly one of `expression_template` and `expression`.
 * @see docs/pipes.md#pipecondition, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeCondition expression (`invalid_pipe_field`). */
export const conditionExpression: Rule = {
  id: 'S4-condition-expression',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-condition-expression',
  check: (context) =>
    pipesOfType(context, 'PipeCondition')
      .filter(
        (pipe) => (pipe.blueprint.expression_template === undefined) === (pipe.blueprint.expression === undefined),
      )
      .map((pipe) =>
        pipeItem(
          conditionExpression,
          pipe,
          MESSAGES.condition_expression({ pipe: pipe.code, both: pipe.blueprint.expression !== undefined }),
          pipeField(pipe, 'expression_template'),
        ),
      ),
};
