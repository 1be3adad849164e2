/**
 * S4 PipeParallel (compat mode): `add_each_output = true`, a `combined_output` concept, or an output that holds the
 * combination of the branches (`Composite`, or a structured concept fitting the branch results;
 * docs/pipes.md#pipeparallel).
 * In strict mode the parallel always combines into its output and `S4-parallel-output-concept` checks that output.
 * @see docs/pipes.md#pipeparallel, docs/rules.md#pipes-s4, docs/pipes.md#pipeparallel
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
  see: 'docs/rules.md#s4-parallel-output-mode',
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
