/**
 * S4 PipeDocGen: the output carries no multiplicity (`Document`, never `Document[]` or `Document[N]`).
 * @see docs/document-generation.md
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeDocGen single output (`inadequate_output_multiplicity`). */
export const docGenOutputSingle: Rule = {
  id: 'S4-doc-gen-output-single',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_multiplicity',
  see: 'docs/rules.md#s4-doc-gen-output-single',
  check: (context) =>
    pipesOfType(context, 'PipeDocGen')
      .filter((pipe) => pipe.output.multiplicity !== 'single')
      .map((pipe) =>
        pipeItem(
          docGenOutputSingle,
          pipe,
          MESSAGES.doc_gen_output_single({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
