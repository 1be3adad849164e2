/**
 * S4 PipeExtract: the output is `Page[]` (Page, or a refinement of it, as a variable-length list).
 * @see docs/pipes.md#pipeextract, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { outputRefines } from './output-refines.js';

/** S4 PipeExtract output (`inadequate_output_concept`). */
export const extractOutputPages: Rule = {
  id: 'S4-extract-output-pages',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-extract-output-pages',
  check: (context) =>
    pipesOfType(context, 'PipeExtract')
      .filter(
        (pipe) =>
          pipe.output.multiplicity !== 'variable' || outputRefines(context.library, pipe, 'native.Page') === false,
      )
      .map((pipe) =>
        pipeItem(
          extractOutputPages,
          pipe,
          MESSAGES.extract_output_pages({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
