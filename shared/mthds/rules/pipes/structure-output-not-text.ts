/**
 * S4 PipeStructure: the output is not text (neither Text, a concept refining it, nor a description-only concept).
 * @see docs/pipes.md#pipestructure (reference `pipe_operators/structure`, pipelex-api 0.16)
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeStructure output concept (`inadequate_output_concept`). */
export const structureOutputNotText: Rule = {
  id: 'S4-structure-output-not-text',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-structure-output-not-text',
  check: (context) =>
    pipesOfType(context, 'PipeStructure')
      .filter((pipe) => {
        const output = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
        return output !== undefined && context.library.isTextLike(output);
      })
      .map((pipe) =>
        pipeItem(
          structureOutputNotText,
          pipe,
          MESSAGES.structure_output_not_text({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
