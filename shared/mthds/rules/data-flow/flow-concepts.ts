/**
 * S5b V-X1: inside a PipeSequence, what each step input is bound to (a declared input of the sequence or the output of
 * an earlier step) is of a concept compatible with the one the step declares: the same concept or a refinement of it
 * (`Anything` and `Dynamic` on either side are not checked).
 * @see docs/concepts.md#refinement-and-compatibility, docs/data-flow.md#binding-inputs, docs/rules.md#v-x1
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { sequenceFlow, withMultiplicity } from './sequence-flow.js';

const UNCHECKED = new Set(['native.Anything', 'native.Dynamic']);

/** S5b V-X1 step input concepts (`input_stuff_spec_mismatch`). */
export const flowConcepts: Rule = {
  id: 'V-X1',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#v-x1',
  check: (context) =>
    pipesOfType(context, 'PipeSequence').flatMap((pipe) =>
      sequenceFlow(context.library, pipe).flatMap(({ at, input, expected, value }) => {
        const produced = context.library.concepts.get(value.conceptRef);
        const wanted = context.library.concepts.get(input.conceptRef);
        if (
          !produced ||
          !wanted ||
          UNCHECKED.has(produced.ref) ||
          UNCHECKED.has(wanted.ref) ||
          context.library.isCompatible(produced, wanted)
        )
          return [];
        const message = MESSAGES.flow_concept({
          pipe: pipe.code,
          at,
          input: input.name,
          expected: withMultiplicity(input.conceptRef, expected),
          origin: value.origin,
          produced: value.raw,
        });
        return [pipeItem(flowConcepts, pipe, message, pipeField(pipe, `${at}.pipe`))];
      }),
    ),
};
