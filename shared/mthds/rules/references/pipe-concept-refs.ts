/**
 * S5: the concept references of every pipe resolve: input values, `output` and `combined_output`
 * (docs/namespaces.md#resolution-order).
 * Cross-package references to a package that is not loaded are deferred. The item carries the missing code and the
 * declared concepts.
 * @see docs/namespaces.md#where-references-occur, docs/namespaces.md#resolution-order, docs/rules.md#references-s5;
 * docs/api.md#validation-items (`unresolved_concept`)
 */
import { MESSAGES } from '../../messages.js';
import { stripMultiplicity } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { conceptRefProblem } from './concept-ref-problem.js';
import { conceptRefsOf } from './references-of.js';

/** S5 pipe concept references resolve (`unresolved_concept`). */
export const pipeConceptRefs: Rule = {
  id: 'S5-pipe-concept-refs',
  stage: 'S5',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unresolved_concept',
  see: 'docs/rules.md#s5-pipe-concept-refs',
  check: (context) => {
    const declared = [...context.library.concepts.values()]
      .filter((concept) => !concept.isNative)
      .map((concept) => concept.ref);
    return pipesOf(context).flatMap((pipe) =>
      conceptRefsOf(pipe).flatMap(({ field, ref }) => {
        const reason = conceptRefProblem(context.library, ref, pipe.domain_code, context.mode);
        if (reason === undefined) return [];
        const message = MESSAGES.unresolved_concept({ where: `Pipe '${pipe.code}'`, field, ref, reason });
        return [
          pipeItem(pipeConceptRefs, pipe, message, {
            ...pipeField(pipe, field),
            missing_concept_code: stripMultiplicity(ref),
            declared_concepts: declared,
          }),
        ];
      }),
    );
  },
};
