/**
 * S4 PipeBatch: `input_list_name` is one of the declared inputs.
 * @see docs/pipes.md#pipebatch, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeBatch list name (`invalid_pipe_field`). */
export const batchListName: Rule = {
  id: 'S4-batch-list-name',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-batch-list-name',
  check: (context) =>
    pipesOfType(context, 'PipeBatch').flatMap((pipe) => {
      const names = pipe.inputs.map((input) => input.name);
      if (names.includes(pipe.blueprint.input_list_name)) return [];
      return [
        pipeItem(
          batchListName,
          pipe,
          MESSAGES.batch_list_name({ pipe: pipe.code, list: pipe.blueprint.input_list_name, inputs: names }),
          pipeField(pipe, 'input_list_name'),
        ),
      ];
    }),
};
