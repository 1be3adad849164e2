/**
 * S4 PipeCondition: `outcomes` has at least one entry.
 * @see docs/pipes.md#pipecondition, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeCondition outcomes (`invalid_pipe_field`). */
export const conditionOutcomes: Rule = {
  id: 'S4-condition-outcomes',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-condition-outcomes',
  check: (context) =>
    pipesOfType(context, 'PipeCondition')
      .filter((pipe) => Object.keys(pipe.blueprint.outcomes).length === 0)
      .map((pipe) =>
        pipeItem(
          conditionOutcomes,
          pipe,
          MESSAGES.condition_outcomes_empty({ pipe: pipe.code }),
          pipeField(pipe, 'outcomes'),
        ),
      ),
};
