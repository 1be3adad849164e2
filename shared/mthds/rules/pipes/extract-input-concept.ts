/**
 * S4 PipeExtract (warning): the input is a Document or an Image, or a concept refining one of them.
 * @see docs/pipes.md#pipeextract, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

const EXTRACTABLE = new Set(['native.Document', 'native.Image']);

/** S4 PipeExtract input concept (warning, `input_stuff_spec_mismatch`). */
export const extractInputConcept: Rule = {
  id: 'S4-extract-input-concept',
  stage: 'S4',
  severity: 'warning',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#s4-extract-input-concept',
  check: (context) =>
    pipesOfType(context, 'PipeExtract').flatMap((pipe) =>
      pipe.inputs.flatMap((input) => {
        const concept = context.library.findConcept(input.conceptRef, pipe.domain_code);
        if (!concept || context.library.ancestry(concept).some((ancestor) => EXTRACTABLE.has(ancestor.ref))) return [];
        return [
          pipeItem(
            extractInputConcept,
            pipe,
            MESSAGES.extract_input_concept({ pipe: pipe.code, input: input.name, concept: input.raw }),
            pipeField(pipe, `inputs.${input.name}`),
          ),
        ];
      }),
    ),
};
