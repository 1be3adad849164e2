/**
 * S5b: a PipeCondition that can take the `continue` outcome (an outcome or its `default_outcome`) produces no value
 * there, a declared absence, so its output must be declared optional (`X?`).
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { presenceFlow } from './presence-flow.js';

/** S5b `continue` without a `?` output (`optional_output_required`). */
export const optionalOutputRequired: Rule = {
  id: 'S5b-optional-output-required',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'optional_output_required',
  see: 'docs/rules.md#s5b-optional-output-required',
  check: (context) =>
    pipesOfType(context, 'PipeCondition').flatMap((pipe) => {
      const via = presenceFlow(context.library).get(pipe.ref)?.continueVia;
      if (via === undefined || pipe.output.presence === 'optional') return [];
      return [
        pipeItem(
          optionalOutputRequired,
          pipe,
          MESSAGES.optional_output_required({ pipe: pipe.code, output: pipe.output.raw, via }),
          pipeField(pipe, 'output'),
        ),
      ];
    }),
};
