/**
 * S5b V-O1: a PipeSequence's declared output concept is compatible with what its last step produces (the same concept
 * or
 * an ancestor of it; `Anything` and `Dynamic` on either side are not checked). A last binding step produces the concept
 * its path derives (docs/data-flow.md#binding-steps). The item carries an unsafe fix that sets
 * the output to what the last step produces (fix id `match-sequence-output`).
 * @see docs/concepts.md#refinement-and-compatibility, docs/data-flow.md#output-naming, docs/rules.md#v-o1
 */
import type { Concept, Pipe } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { MESSAGES } from '../../messages.js';
import { isBindingStep } from '../../parse/sequence-steps.js';
import { stripMultiplicity } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { valueAfterSequence } from './sequence-flow.js';

const UNCHECKED = new Set(['native.Anything', 'native.Dynamic']);

/** What the last step of a sequence produces: its concept, as written for the fix, and the step's label. */
function lastProduct(
  library: MthdsLibrary,
  pipe: Pipe,
): { produced: Concept; producedRaw: string; step: string } | undefined {
  if (pipe.blueprint.type !== 'PipeSequence') return undefined;
  const last = pipe.blueprint.steps[pipe.blueprint.steps.length - 1];
  if (last === undefined) return undefined;
  if (isBindingStep(last)) {
    const value = valueAfterSequence(library, pipe, last.result);
    const produced = value && library.findConcept(value.conceptRef, pipe.domain_code);
    return value && produced ? { produced, producedRaw: value.raw, step: last.from } : undefined;
  }
  const stepPipe = library.findPipe(last.pipe, pipe.domain_code);
  const produced = stepPipe && library.findConcept(stepPipe.output.conceptRef, stepPipe.domain_code);
  if (!stepPipe || !produced) return undefined;
  const producedRaw =
    last.batch_over === undefined ? stepPipe.output.raw : `${stripMultiplicity(stepPipe.output.raw)}[]`;
  return { produced, producedRaw, step: stepPipe.code };
}

/** S5b V-O1 sequence output (`inadequate_output_concept`). */
export const sequenceOutput: Rule = {
  id: 'V-O1',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#v-o1',
  check: (context) =>
    pipesOfType(context, 'PipeSequence').flatMap((pipe) => {
      const { library } = context;
      const last = lastProduct(library, pipe);
      const expected = library.findConcept(pipe.output.conceptRef, pipe.domain_code);
      if (
        !last ||
        !expected ||
        UNCHECKED.has(last.produced.ref) ||
        UNCHECKED.has(expected.ref) ||
        library.isCompatible(last.produced, expected)
      )
        return [];
      const { producedRaw } = last;
      const message = MESSAGES.sequence_output({
        pipe: pipe.code,
        output: pipe.output.raw,
        step: last.step,
        produced: producedRaw,
      });
      return [
        pipeItem(sequenceOutput, pipe, message, {
          ...pipeField(pipe, 'output'),
          suggested_fix: {
            fix_code: 'match-sequence-output',
            description: `Set the output of '${pipe.code}' to "${producedRaw}", what its last step produces.`,
            safety: 'unsafe',
            source: pipe.source,
            ops: [{ kind: 'set_key', table_path: ['pipe', pipe.code], key: 'output', value: producedRaw }],
          },
        }),
      ];
    }),
};
