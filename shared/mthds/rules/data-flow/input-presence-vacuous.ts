/**
 * S5b warning: a method input (an input of a bundle's `main_pipe`) that must be supplied (plain or `!`) but whose
 * concept declares no required field — the empty object satisfies it, so the declaration enforces nothing.
 * @see docs/language.md#optionality-presence-markers-and-absences (`input_presence_vacuous`, a newer reference lint)
 */
import { fieldsOf } from '../../library/binding-derivation.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem } from '../rule-item.js';

/** S5b method input with a vacuous concept (`input_presence_vacuous`, a warning). */
export const inputPresenceVacuous: Rule = {
  id: 'S5b-input-presence-vacuous',
  stage: 'S5b',
  severity: 'warning',
  category: 'pipe_validation',
  error_type: 'input_presence_vacuous',
  see: 'docs/rules.md#s5b-input-presence-vacuous',
  check: ({ bundles, library }) => {
    const mains = new Set(
      bundles.flatMap(({ blueprint }) =>
        blueprint.main_pipe === undefined
          ? []
          : [library.findPipe(blueprint.main_pipe, blueprint.domain)].filter((pipe) => pipe !== undefined),
      ),
    );
    return [...mains].flatMap((pipe) =>
      pipe.inputs
        .filter((input) => input.presence !== 'optional' && input.multiplicity === 'single')
        .flatMap((input) => {
          const concept = library.findConcept(input.conceptRef, pipe.domain_code);
          if (!concept || concept.isNative) return [];
          const fields = fieldsOf(library, concept);
          if (fields === null || Object.values(fields).some((field) => field.required)) return [];
          return [
            pipeItem(
              inputPresenceVacuous,
              pipe,
              MESSAGES.input_presence_vacuous({ pipe: pipe.code, input: input.name, concept: input.raw }),
              { ...pipeField(pipe, `inputs.${input.name}`), variable_names: [input.name] },
            ),
          ];
        }),
    );
  },
};
