/**
 * S4 PipeDocGen: an engine of the doc_gen deck prints the pipe's (format, source) pair — its `model`, else the deck's
 * choice default; the reference raises `DocGenEngineMissingError` at load. A pipe whose source fields are
 * inconsistent is left to `S4-doc-gen-source`.
 * @see docs/document-generation.md
 */
import { chooseDocGenEngine, docGenSource } from '../../library/doc-gen.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeDocGen engine (`invalid_pipe_field`). */
export const docGenEngine: Rule = {
  id: 'S4-doc-gen-engine',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-doc-gen-engine',
  check: (context) =>
    pipesOfType(context, 'PipeDocGen').flatMap((pipe) => {
      const { blueprint } = pipe;
      const misplacedTemplate = blueprint.template !== undefined && blueprint.format !== 'pdf';
      const bothTemplates = blueprint.template !== undefined && blueprint.template_file !== undefined;
      const pptxLayout = blueprint.format === 'pptx' && blueprint.template_file === undefined;
      if (misplacedTemplate || bothTemplates || pptxLayout) return [];
      const choice = chooseDocGenEngine(blueprint.format, docGenSource(blueprint), blueprint.model);
      if ('engine' in choice) return [];
      return [
        pipeItem(
          docGenEngine,
          pipe,
          MESSAGES.doc_gen_engine_missing({ pipe: pipe.code, reason: choice.missing }),
          pipeField(pipe, blueprint.model === undefined ? 'format' : 'model'),
        ),
      ];
    }),
};
