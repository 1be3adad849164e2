/**
 * S5b: a maybe-absent value does not escape a controller through an output not declared optional — a PipeSequence whose
 * last step can be skipped or resolve absent, or a PipeCondition whose outcome pipe can (the `continue` outcome is
 * `optional_output_required`'s). A plural output is never absent (a skipped producer gives `[]`).
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { presenceFlow } from './presence-flow.js';

/** S5b maybe-absent output not declared `?` (`optional_not_handled`). */
export const optionalNotHandled: Rule = {
  id: 'S5b-optional-not-handled',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'optional_not_handled',
  see: 'docs/rules.md#s5b-optional-not-handled',
  check: (context) =>
    pipesOf(context).flatMap((pipe) => {
      const flow = presenceFlow(context.library).get(pipe.ref);
      if (!flow || flow.outputOrigin === undefined || flow.continueVia !== undefined) return [];
      if (pipe.output.presence === 'optional' || pipe.output.multiplicity !== 'single') return [];
      return [
        pipeItem(
          optionalNotHandled,
          pipe,
          MESSAGES.optional_not_handled({ pipe: pipe.code, output: pipe.output.raw, origin: flow.outputOrigin }),
          pipeField(pipe, 'output'),
        ),
      ];
    }),
};
