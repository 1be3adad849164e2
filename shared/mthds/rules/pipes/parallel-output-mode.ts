/**
 * S4 PipeParallel (compat mode): `add_each_output = true`, a `combined_output` concept, or an output that holds the
 * combination of the branches (`Composite`, or a structured concept fitting the branch results; LANGUAGE-DELTA.md §9).
 * In strict mode the parallel always combines into its output and `S4-parallel-output-concept` checks that output.
 * @see LANGUAGE.md §3.9, §6 S4, LANGUAGE-DELTA.md §9
 */
import { parallelCombinationFit } from '../../library/parallel-combination.js';
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
  see: 'LANGUAGE.md §3.9, §6 S4, LANGUAGE-DELTA.md §9',
  check: (context) =>
    pipesOfType(context, 'PipeParallel')
      .filter(
        (pipe) =>
          context.mode === 'compat' &&
          pipe.blueprint.add_each_output !== true &&
          pipe.blueprint.combined_output === undefined &&
          !parallelCombinationFit(context.library, pipe).fits,
      )
      .map((pipe) =>
        pipeItem(
          parallelOutputMode,
          pipe,
          MESSAGES.parallel_output_mode({ pipe: pipe.code }),
          pipeField(pipe, 'add_each_output'),
        ),
      ),
};
