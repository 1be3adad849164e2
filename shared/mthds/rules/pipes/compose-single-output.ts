/**
 * S4 PipeCompose: the output has no multiplicity (one item).
 * @see docs/pipes.md#pipecompose, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeCompose single output (`inadequate_output_multiplicity`). */
export const composeSingleOutput: Rule = {
  id: 'S4-compose-single-output',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_multiplicity',
  see: 'docs/rules.md#s4-compose-single-output',
  check: (context) =>
    pipesOfType(context, 'PipeCompose')
      .filter((pipe) => pipe.output.multiplicity !== 'single')
      .map((pipe) =>
        pipeItem(
          composeSingleOutput,
          pipe,
          MESSAGES.compose_single_output({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
