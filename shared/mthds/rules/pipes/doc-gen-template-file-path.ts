/**
 * S4 PipeDocGen: a `template_file` is a relative path that stays inside the bundle's directory and has the extension
 * of its format (`.html` for pdf, else `.xlsx` / `.docx` / `.pptx`).
 * @see docs/document-generation.md
 */
import { DOC_GEN_FORMATS } from '../../library/doc-gen.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/**
 * What is wrong with a template path, or undefined when it is well formed.
 * @param path - the `template_file` as written
 * @param extension - the extension its format requires, with its dot
 */
function pathProblem(path: string, extension: string): string | undefined {
  if (path.trim() === '') return 'is empty';
  if (path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path))
    return 'is not a relative path with / separators';
  if (path.split('/').some((segment) => segment === '..'))
    return "leaves the bundle's directory ('..'); name a file inside it";
  if (!path.toLowerCase().endsWith(extension)) return `does not end with ${extension}, the extension its format needs`;
  return undefined;
}

/** S4 PipeDocGen template_file path (`invalid_pipe_field`). */
export const docGenTemplateFilePath: Rule = {
  id: 'S4-doc-gen-template-file-path',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-doc-gen-template-file-path',
  check: (context) =>
    pipesOfType(context, 'PipeDocGen').flatMap((pipe) => {
      const path = pipe.blueprint.template_file;
      if (path === undefined) return [];
      const problem = pathProblem(path, DOC_GEN_FORMATS[pipe.blueprint.format].templateFileExtension);
      if (problem === undefined) return [];
      return [
        pipeItem(
          docGenTemplateFilePath,
          pipe,
          MESSAGES.doc_gen_template_file_path({ pipe: pipe.code, path, problem }),
          pipeField(pipe, 'template_file'),
        ),
      ];
    }),
};
