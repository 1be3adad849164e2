/**
 * S4 PipeDocGen: the output is strictly Document-compatible — `Document` or a concept refining it (neither
 * `Anything` nor `Dynamic`); the reference raises `PipeDocGenFactoryError`.
 * @see docs/document-generation.md
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

const DOCUMENT_REF = 'native.Document';

/** S4 PipeDocGen output concept (`inadequate_output_concept`). */
export const docGenOutput: Rule = {
  id: 'S4-doc-gen-output',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-doc-gen-output',
  check: (context) =>
    pipesOfType(context, 'PipeDocGen')
      .filter((pipe) => {
        const output = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
        return output !== undefined && !context.library.ancestry(output).some((c) => c.ref === DOCUMENT_REF);
      })
      .map((pipe) =>
        pipeItem(
          docGenOutput,
          pipe,
          MESSAGES.doc_gen_output_document({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
