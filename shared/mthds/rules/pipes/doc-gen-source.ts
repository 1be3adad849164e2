/**
 * S4 PipeDocGen: what it prints from is consistent — `template` only for a pdf, never with `template_file`, and a
 * pptx names a `template_file` (pptx has no layout).
 * @see docs/document-generation.md
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeDocGen source fields (`invalid_pipe_field`). */
export const docGenSource: Rule = {
  id: 'S4-doc-gen-source',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-doc-gen-source',
  check: (context) =>
    pipesOfType(context, 'PipeDocGen').flatMap((pipe): ValidationErrorItem[] => {
      const { format, template, template_file: templateFile } = pipe.blueprint;
      if (template !== undefined && templateFile !== undefined)
        return [
          pipeItem(
            docGenSource,
            pipe,
            MESSAGES.doc_gen_template_exclusive({ pipe: pipe.code }),
            pipeField(pipe, 'template_file'),
          ),
        ];
      if (template !== undefined && format !== 'pdf')
        return [
          pipeItem(
            docGenSource,
            pipe,
            MESSAGES.doc_gen_template_not_pdf({ pipe: pipe.code, format }),
            pipeField(pipe, 'template'),
          ),
        ];
      if (format === 'pptx' && templateFile === undefined)
        return [
          pipeItem(
            docGenSource,
            pipe,
            MESSAGES.doc_gen_pptx_template_file({ pipe: pipe.code }),
            pipeField(pipe, 'template_file'),
          ),
        ];
      return [];
    }),
};
