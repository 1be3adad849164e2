/**
 * S2: `main_pipe`, when set, names a pipe defined in the same bundle.
 * @see LANGUAGE.md §1.2, §6 S2
 */
import { MESSAGES } from '../../messages.js';
import { bundleItem } from '../rule-item.js';
import type { Rule } from '../rule.js';

/** S2 main pipe defined in the bundle (`unresolved_pipe_dependency`). */
export const mainPipeDefined: Rule = {
  id: 'S2-main-pipe-defined',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'unresolved_pipe_dependency',
  see: 'LANGUAGE.md §1.2, §6 S2',
  check: ({ bundles }) =>
    bundles.flatMap((bundle) => {
      const main = bundle.blueprint.main_pipe;
      if (main === undefined || Object.hasOwn(bundle.blueprint.pipe, main)) return [];
      const message = MESSAGES.main_pipe_not_defined({ mainPipe: main, pipes: Object.keys(bundle.blueprint.pipe) });
      return [bundleItem(mainPipeDefined, bundle, message, { field_path: 'main_pipe', field_name: 'main_pipe', missing_pipe_code: main })];
    }),
};
