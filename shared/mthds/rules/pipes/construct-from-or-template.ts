/**
 * S4 PipeCompose: a construct field does not set both `from` and `template` (at any nesting depth).
 * @see docs/pipes.md#pipecompose, docs/rules.md#pipes-s4
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

function visit(pipe: Pipe, value: unknown, path: string, items: ValidationErrorItem[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const table = value as Record<string, unknown>;
  if ('from' in table && 'template' in table) {
    items.push(
      pipeItem(
        constructFromOrTemplate,
        pipe,
        MESSAGES.construct_from_and_template({ pipe: pipe.code, field: path }),
        pipeField(pipe, path),
      ),
    );
    return;
  }
  for (const [key, nested] of Object.entries(table)) visit(pipe, nested, `${path}.${key}`, items);
}

/** S4 construct field from or template (`invalid_pipe_field`). */
export const constructFromOrTemplate: Rule = {
  id: 'S4-construct-from-or-template',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-construct-from-or-template',
  check: (context) =>
    pipesOfType(context, 'PipeCompose').flatMap((pipe) => {
      const items: ValidationErrorItem[] = [];
      for (const [key, value] of Object.entries(pipe.blueprint.construct ?? {}))
        visit(pipe, value, `construct.${key}`, items);
      return items;
    }),
};
