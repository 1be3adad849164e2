/**
 * S4 PipeStructure: exactly one input (the Text to structure).
 * @see docs/pipes.md#pipestructure (reference `pipe_operators/structure`, pipelex-api 0.16)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeStructure single input (`invalid_pipe_field`). */
export const structureSingleInput: Rule = {
  id: 'S4-structure-single-input',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-structure-single-input',
  check: (context) =>
    pipesOfType(context, 'PipeStructure')
      .filter((pipe) => pipe.inputs.length !== 1)
      .map((pipe) =>
        pipeItem(
          structureSingleInput,
          pipe,
          MESSAGES.structure_one_input({ pipe: pipe.code, count: pipe.inputs.length }),
          pipeField(pipe, 'inputs'),
        ),
      ),
};
