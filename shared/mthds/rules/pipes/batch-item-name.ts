/**
 * S4 PipeBatch: `input_item_name` is not blank, differs from `input_list_name` and is not a declared input.
 * @see docs/pipes.md#pipebatch, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeBatch item name (`batch_item_name_collision`). */
export const batchItemName: Rule = {
  id: 'S4-batch-item-name',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'batch_item_name_collision',
  see: 'docs/rules.md#s4-batch-item-name',
  check: (context) =>
    pipesOfType(context, 'PipeBatch').flatMap((pipe) => {
      const { input_item_name: item, input_list_name: list } = pipe.blueprint;
      const problem =
        item.trim() === ''
          ? 'empty'
          : item === list
            ? 'list'
            : pipe.inputs.some((input) => input.name === item)
              ? 'input'
              : undefined;
      if (problem === undefined) return [];
      return [
        pipeItem(
          batchItemName,
          pipe,
          MESSAGES.batch_item_name({ pipe: pipe.code, item, problem }),
          pipeField(pipe, 'input_item_name'),
        ),
      ];
    }),
};
