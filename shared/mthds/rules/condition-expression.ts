/**
 * S4 PipeCondition: exactly one of `expression_template` / `expression`, and at least one outcome
 * (LANGUAGE.md §3.10).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { pipeFieldItem } from './field-item.js';
import { pipesOf, type Rule } from './rule.js';

export const conditionExpression: Rule = {
  id: 'S4-condition-expression',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.10',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeCondition') continue;
      if ((pipe.blueprint.expression_template === undefined) === (pipe.blueprint.expression === undefined)) {
        items.push(pipeFieldItem(pipe, 'expression', 'set exactly one of expression_template and expression.'));
      }
      if (Object.keys(pipe.blueprint.outcomes).length === 0) items.push(pipeFieldItem(pipe, 'outcomes', 'at least one outcome is needed.'));
    }
    return items;
  },
};
