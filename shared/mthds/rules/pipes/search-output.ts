/**
 * S4 PipeSearch: the output is SearchResult or a refinement of it, or a single structured concept (a declared
 * structure, its own or inherited, on no native), which makes it a structured search (docs/pipes.md#pipesearch).
 * @see docs/pipes.md#pipesearch, docs/rules.md#pipes-s4
 */

import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule, RuleContext } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { outputRefines } from './output-refines.js';

/** Whether a pipe's output is one object of a structured concept (refining no native). */
function isStructuredSearch(context: RuleContext, pipe: Pipe): boolean {
  const output = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
  if (output === undefined || pipe.output.multiplicity !== 'single') return false;
  const ancestry = context.library.ancestry(output);
  return !ancestry.some((concept) => concept.isNative) && ancestry.some((concept) => concept.structure !== null);
}

/** S4 PipeSearch output (`inadequate_output_concept`). */
export const searchOutput: Rule = {
  id: 'S4-search-output',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-search-output',
  check: (context) =>
    pipesOfType(context, 'PipeSearch')
      .filter(
        (pipe) =>
          outputRefines(context.library, pipe, 'native.SearchResult') === false && !isStructuredSearch(context, pipe),
      )
      .map((pipe) =>
        pipeItem(
          searchOutput,
          pipe,
          MESSAGES.search_output({ pipe: pipe.code, output: pipe.output.raw }),
          pipeField(pipe, 'output'),
        ),
      ),
};
