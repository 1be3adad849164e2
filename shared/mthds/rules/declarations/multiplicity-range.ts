/**
 * S2: every fixed count a bundle writes is between 1 and {@link MAX_MULTIPLICITY}: the `[N]` of a pipe's inputs,
 * output and `combined_output`, and a step's or branch's `nb_output`. Checked before anything is built from a count
 * (mock lists of a dry run, structured-output schemas, inputs templates).
 * @see docs/limits.md#multiplicity
 */
import { MESSAGES } from '../../messages.js';
import { MAX_MULTIPLICITY, parseConceptRef } from '../../references.js';
import { subPipesOf } from '../pipes/sub-pipes.js';
import { conceptRefsOf } from '../references/references-of.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';

const inRange = (count: number) => count >= 1 && count <= MAX_MULTIPLICITY;

/** S2 multiplicity range (`multiplicity_out_of_range`). */
export const multiplicityRange: Rule = {
  id: 'S2-multiplicity-range',
  stage: 'S2',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'multiplicity_out_of_range',
  see: 'docs/rules.md#s2-multiplicity-range',
  check: (context) =>
    pipesOf(context).flatMap((pipe) => {
      const written = conceptRefsOf(pipe).flatMap(({ field, ref }) => {
        const multiplicity = parseConceptRef(ref)?.multiplicity;
        return typeof multiplicity === 'number' && !inRange(multiplicity) ? [{ field, written: ref }] : [];
      });
      const overrides = subPipesOf(pipe).flatMap(({ at, sub }) =>
        sub.nb_output !== undefined && !inRange(sub.nb_output)
          ? [{ field: `${at}.nb_output`, written: `nb_output = ${sub.nb_output}` }]
          : [],
      );
      return [...written, ...overrides].map(({ field, written: spec }) =>
        pipeItem(
          multiplicityRange,
          pipe,
          MESSAGES.multiplicity_out_of_range({ pipe: pipe.code, field, written: spec, max: MAX_MULTIPLICITY }),
          pipeField(pipe, field),
        ),
      );
    }),
};
