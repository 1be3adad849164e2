/**
 * S4 PipeParallel: `add_each_output = true` or a `combined_output` concept (or both).
 * @see LANGUAGE.md §3.9, §6 S4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeParallel output mode (`invalid_pipe_field`). */
export const parallelOutputMode: Rule = {
  id: 'S4-parallel-output-mode',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE.md §3.9, §6 S4',
  check: (context) =>
    pipesOfType(context, 'PipeParallel')
      .filter((pipe) => pipe.blueprint.add_each_output !== true && pipe.blueprint.combined_output === undefined)
      .map((pipe) =>
        pipeItem(
          parallelOutputMode,
          pipe,
          MESSAGES.parallel_output_mode({ pipe: pipe.code }),
          pipeField(pipe, 'add_each_output'),
        ),
      ),
};
