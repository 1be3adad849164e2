/**
 * S4 PipeDocGen: a `template_file` names a file of the bundle's directory. Bundles sent as text (`mthds_contents`)
 * have no directory and are refused; bundles sent with their files (zip, file map) or fetched by `method_ref` (a git
 * clone) are checked against their files. Not checked when the loader is not told where the bundles came from.
 * @see docs/document-generation.md
 */
import { templateFileCandidates } from '../../library/doc-gen.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeDocGen template_file origin (`invalid_pipe_field`). */
export const docGenTemplateFileOrigin: Rule = {
  id: 'S4-doc-gen-template-file-origin',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-doc-gen-template-file-origin',
  check: (context) => {
    const files = context.bundleFiles;
    if (files === undefined) return [];
    const known = new Set(files);
    return pipesOfType(context, 'PipeDocGen').flatMap((pipe) => {
      const path = pipe.blueprint.template_file;
      if (path === undefined) return [];
      const details = pipeField(pipe, 'template_file');
      if (files === null)
        return [
          pipeItem(
            docGenTemplateFileOrigin,
            pipe,
            MESSAGES.doc_gen_template_file_string({ pipe: pipe.code, path }),
            details,
          ),
        ];
      if (templateFileCandidates(pipe.source, path).some((candidate) => known.has(candidate))) return [];
      return [
        pipeItem(
          docGenTemplateFileOrigin,
          pipe,
          MESSAGES.doc_gen_template_file_missing({ pipe: pipe.code, path, files }),
          details,
        ),
      ];
    });
  },
};
