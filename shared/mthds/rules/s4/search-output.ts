/**
 * S4 PipeSearch: the output is SearchResult or a refinement of it.
 * @see LANGUAGE.md §3.6, §6 S4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { outputRefines } from './output-refines.js';

/** S4 PipeSearch output (`inadequate_output_concept`). */
export const searchOutput: Rule = {
  id: 'S4-search-output',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'LANGUAGE.md §3.6, §6 S4',
  check: (context) =>
    pipesOfType(context, 'PipeSearch')
      .filter((pipe) => outputRefines(context.library, pipe, 'native.SearchResult') === false)
      .map((pipe) =>
        pipeItem(
          searchOutput,
          pipe,
          MESSAGES.search_output({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
