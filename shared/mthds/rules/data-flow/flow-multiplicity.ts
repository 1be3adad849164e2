/**
 * S5b V-M1: inside a PipeSequence, what each step input is bound to has the multiplicity the step declares (one item,
 * a list, or a list of N). The reference tolerates mismatches (docs/data-flow.md#binding-inputs, a `Page[]` fed to a
 * `Page` input in
 * the published samples), so this is an error in strict mode only; compat mode warns (see {@link
 * flowMultiplicityWarning}).
 * @see docs/data-flow.md#binding-inputs, docs/rules.md#v-m1
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule, RuleContext } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { multiplicityFits, sequenceFlow, withMultiplicity } from './sequence-flow.js';

function mismatches(rule: Rule, context: RuleContext): ValidationErrorItem[] {
  return pipesOfType(context, 'PipeSequence').flatMap((pipe) =>
    sequenceFlow(context.library, pipe).flatMap(({ at, input, expected, value }) => {
      if (multiplicityFits(value.multiplicity, expected)) return [];
      const message = MESSAGES.flow_multiplicity({
        pipe: pipe.code,
        at,
        input: input.name,
        expected: withMultiplicity(input.conceptRef, expected),
        origin: value.origin,
        produced: value.raw,
      });
      return [pipeItem(rule, pipe, message, pipeField(pipe, `${at}.pipe`))];
    }),
  );
}

/** S5b V-M1 step input multiplicity, strict mode (`input_stuff_spec_mismatch`). */
export const flowMultiplicity: Rule = {
  id: 'V-M1',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#v-m1',
  check: (context) => (context.mode === 'strict' ? mismatches(flowMultiplicity, context) : []),
};

/** S5b V-M1 step input multiplicity, compat mode: the same finding as a warning (`input_stuff_spec_mismatch`). */
export const flowMultiplicityWarning: Rule = {
  id: 'V-M1-compat',
  stage: 'S5b',
  severity: 'warning',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#v-m1-compat',
  check: (context) => (context.mode === 'compat' ? mismatches(flowMultiplicityWarning, context) : []),
};
