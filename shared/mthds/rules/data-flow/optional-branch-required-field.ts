/**
 * S5b: a PipeParallel absorbs an absent branch into its structured output by leaving the field the branch's `result`
 * fills unset, so a branch that may be absent cannot feed a required field.
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
import { fieldsOf } from '../../library/binding-derivation.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { presenceFlow } from './presence-flow.js';

/** S5b maybe-absent branch feeding a required field (`optional_branch_required_field`). */
export const optionalBranchRequiredField: Rule = {
  id: 'S5b-optional-branch-required-field',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'optional_branch_required_field',
  see: 'docs/rules.md#s5b-optional-branch-required-field',
  check: (context) =>
    pipesOfType(context, 'PipeParallel').flatMap((pipe) => {
      const concept = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
      const fields = concept === undefined ? null : fieldsOf(context.library, concept);
      if (fields === null) return [];
      return (presenceFlow(context.library).get(pipe.ref)?.absentBranches ?? [])
        .filter((branch) => fields[branch.result]?.required === true)
        .map((branch) =>
          pipeItem(
            optionalBranchRequiredField,
            pipe,
            MESSAGES.optional_branch_required_field({
              pipe: pipe.code,
              branch: branch.result,
              field: branch.result,
              origin: branch.origin,
            }),
            { ...pipeField(pipe, 'branches'), variable_names: [branch.result] },
          ),
        );
    }),
};
