/**
 * S4 binding steps and dotted `batch_over` (docs/data-flow.md#binding-steps, a newer reference feature): a binding
 * step's `from`
 * is a root name and `.field` segments (letter first, then letters, digits or `_`) and its `result` a snake_case name;
 * a dotted `batch_over` is such a path too, and only in PipeSequence steps; a plain `batch_over` does not use the
 * private prefix `_bound_`.
 * @see docs/rules.md#pipes-s4, docs/data-flow.md#binding-steps
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import { isBindingPath } from '../../library/binding-derivation.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import { isBindingStep } from '../../parse/sequence-steps.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;
const PRIVATE_PREFIX = '_bound_';

const PATH_PROBLEM = 'is not a binding path: write a root name then .field segments (letters, digits, _)';

function item(pipe: Pipe, field: string, value: string, problem: string): ValidationErrorItem {
  return pipeItem(
    bindingSteps,
    pipe,
    MESSAGES.binding_step_invalid({ pipe: pipe.code, field, value, problem }),
    pipeField(pipe, field),
  );
}

function sequenceItems(pipe: Pipe): ValidationErrorItem[] {
  if (pipe.blueprint.type !== 'PipeSequence') return [];
  return pipe.blueprint.steps.flatMap((step, index) => {
    const at = `steps[${index}]`;
    if (isBindingStep(step))
      return [
        ...(isBindingPath(step.from) ? [] : [item(pipe, `${at}.from`, step.from, PATH_PROBLEM)]),
        ...(SNAKE_CASE.test(step.result) ? [] : [item(pipe, `${at}.result`, step.result, 'is not a snake_case name')]),
      ];
    const over = step.batch_over;
    if (over === undefined) return [];
    if (over.startsWith(PRIVATE_PREFIX))
      return [item(pipe, `${at}.batch_over`, over, `uses the private prefix '${PRIVATE_PREFIX}'`)];
    return over.includes('.') && !isBindingPath(over) ? [item(pipe, `${at}.batch_over`, over, PATH_PROBLEM)] : [];
  });
}

function parallelItems(pipe: Pipe): ValidationErrorItem[] {
  if (pipe.blueprint.type !== 'PipeParallel') return [];
  return pipe.blueprint.branches.flatMap((branch, index) =>
    branch.batch_over?.includes('.')
      ? [
          item(
            pipe,
            `branches[${index}].batch_over`,
            branch.batch_over,
            'is a dotted path, which only PipeSequence steps may batch over',
          ),
        ]
      : [],
  );
}

/** S4 binding steps and dotted `batch_over` (`binding_step_invalid`). */
export const bindingSteps: Rule = {
  id: 'S4-binding-steps',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'binding_step_invalid',
  see: 'docs/rules.md#s4-binding-steps',
  check: (context) => pipesOf(context).flatMap((pipe) => [...sequenceItems(pipe), ...parallelItems(pipe)]),
};
