/**
 * S4 PipeSequence: at least one step.
 * @see docs/pipes.md#pipesequence, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeSequence has steps (`invalid_pipe_field`). */
export const sequenceSteps: Rule = {
  id: 'S4-sequence-steps',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-sequence-steps',
  check: (context) =>
    pipesOfType(context, 'PipeSequence')
      .filter((pipe) => pipe.blueprint.steps.length === 0)
      .map((pipe) =>
        pipeItem(sequenceSteps, pipe, MESSAGES.sequence_no_steps({ pipe: pipe.code }), pipeField(pipe, 'steps')),
      ),
};
