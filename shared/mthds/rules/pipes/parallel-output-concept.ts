/**
 * S4 PipeParallel (strict mode): the output holds the combination of the branches — `Composite` (or a refinement), or
 * a structured concept whose required fields are all branch results and whose fields include every result
 * (`inadequate_output_concept`); never a list (`inadequate_output_multiplicity`). Compat mode keeps the 0.16-era
 * behaviour the reference's published graphs show: an output naming a branch's concept, with `add_each_output`, is that
 * branch's stuff.
 * @see docs/pipes.md#pipeparallel
 */
import { parallelCombinationFit } from '../../library/parallel-combination.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/**
 * S4 PipeParallel output concept, strict mode only (`inadequate_output_concept` / `inadequate_output_multiplicity`).
 */
export const parallelOutputConcept: Rule = {
  id: 'S4-parallel-output-concept',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-parallel-output-concept',
  check: (context) =>
    context.mode === 'compat'
      ? []
      : pipesOfType(context, 'PipeParallel').flatMap((pipe) => {
          const fit = parallelCombinationFit(context.library, pipe);
          if (fit.fits || fit.problem === 'unresolved') return [];
          const where = pipeField(pipe, 'output');
          if (fit.problem === 'multiplicity')
            return [
              {
                ...pipeItem(
                  parallelOutputConcept,
                  pipe,
                  MESSAGES.parallel_output_multiplicity({ pipe: pipe.code, output: pipe.output.raw }),
                  where,
                ),
                error_type: 'inadequate_output_multiplicity',
              },
            ];
          const message = MESSAGES.parallel_output_concept({ pipe: pipe.code, output: pipe.output.raw, ...fit });
          return [pipeItem(parallelOutputConcept, pipe, message, where)];
        }),
};
