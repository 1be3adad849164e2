/**
 * S2: `main_pipe`, when set, names a pipe defined in the same bundle. LANGUAGE.md §1.2.
 */
import type { Rule } from './rule.js';

export const mainPipeDefined: Rule = {
  id: 'S2-main-pipe-defined',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §1.2',
  check: ({ bundles }) =>
    bundles.flatMap(({ blueprint, source }) => {
      const main = blueprint.main_pipe;
      if (main === undefined || main in blueprint.pipe) return [];
      return [
        {
          category: 'blueprint_validation' as const,
          message: `main_pipe '${main}' is not a pipe of this bundle (pipes: ${Object.keys(blueprint.pipe).join(', ') || 'none'}).`,
          error_type: 'unresolved_pipe_dependency',
          source,
          domain_code: blueprint.domain,
          missing_pipe_code: main,
          field_path: 'main_pipe',
          field_name: 'main_pipe',
        },
      ];
    }),
};
