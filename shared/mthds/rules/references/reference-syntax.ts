/**
 * S5: every reference has the syntax of its kind: a pipe reference's code is snake_case (a PascalCase code names a
 * concept), a concept reference's code is PascalCase, with an optional `[]` / `[N]` in pipe inputs and outputs and
 * none in `refines`, `concept_ref` and `item_concept_ref` (docs/concepts.md#declaring-a-concept,
 * docs/pipes.md#common-fields, docs/namespaces.md#reference-syntax).
 * @see docs/namespaces.md#reference-syntax, docs/rules.md#references-s5
 */
import { MESSAGES } from '../../messages.js';
import { parseConceptRef, parsePipeRef } from '../../references.js';
import type { Rule } from '../rule.js';
import { conceptItem, pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { conceptRefsOf, conceptTableRefsOf, pipeRefsOf } from './references-of.js';

/** S5 reference syntax (`invalid_reference`). */
export const referenceSyntax: Rule = {
  id: 'S5-reference-syntax',
  stage: 'S5',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_reference',
  see: 'docs/rules.md#s5-reference-syntax',
  check: (context) => {
    const inPipes = pipesOf(context).flatMap((pipe) => {
      const where = `Pipe '${pipe.code}'`;
      const badPipes = pipeRefsOf(pipe)
        .filter(({ ref }) => parsePipeRef(ref) === undefined)
        .map(({ field, ref }) =>
          pipeItem(
            referenceSyntax,
            pipe,
            MESSAGES.reference_kind({ where, field, ref, expected: 'pipe' }),
            pipeField(pipe, field),
          ),
        );
      const badConcepts = conceptRefsOf(pipe)
        .filter(({ ref }) => parseConceptRef(ref) === undefined)
        .map(({ field, ref }) =>
          pipeItem(
            referenceSyntax,
            pipe,
            MESSAGES.reference_kind({ where, field, ref, expected: 'concept' }),
            pipeField(pipe, field),
          ),
        );
      return [...badPipes, ...badConcepts];
    });
    const inConcepts = context.bundles.flatMap((bundle) =>
      conceptTableRefsOf(bundle)
        .filter(({ ref }) => parseConceptRef(ref)?.multiplicity !== 'single')
        .map(({ code, field, ref }) =>
          conceptItem(
            referenceSyntax,
            bundle,
            code,
            MESSAGES.reference_kind({ where: `Concept '${code}'`, field, ref, expected: 'single concept' }),
            {
              field_path: `concept.${code}.${field}`,
              field_name: field.split('.').pop() ?? field,
            },
          ),
        ),
    );
    return [...inPipes, ...inConcepts];
  },
};
