/**
 * S4 PipeStructure: the input is text (Text, a concept refining it, or a description-only concept).
 * @see docs/pipes.md#pipestructure (reference `pipe_operators/structure`, pipelex-api 0.16)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeStructure input concept (`input_stuff_spec_mismatch`). */
export const structureInputText: Rule = {
  id: 'S4-structure-input-text',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'input_stuff_spec_mismatch',
  see: 'docs/rules.md#s4-structure-input-text',
  check: (context) =>
    pipesOfType(context, 'PipeStructure').flatMap((pipe) =>
      pipe.inputs.flatMap((input) => {
        const concept = context.library.findConcept(input.conceptRef, pipe.domain_code);
        if (!concept || context.library.isTextLike(concept)) return [];
        return [
          pipeItem(
            structureInputText,
            pipe,
            MESSAGES.structure_input_text({ pipe: pipe.code, input: input.name, concept: input.raw }),
            pipeField(pipe, `inputs.${input.name}`),
          ),
        ];
      }),
    ),
};
