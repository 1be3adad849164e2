/**
 * S4 PipeBatch: `input_list_name` is a declared input; `input_item_name` is non-empty, differs from the list name and
 * is not a declared input (LANGUAGE.md §3.11).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { pipeFieldItem } from './field-item.js';
import { pipesOf, type Rule } from './rule.js';

export const batchNames: Rule = {
  id: 'S4-batch-names',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.11',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeBatch') continue;
      const { input_list_name: list, input_item_name: item } = pipe.blueprint;
      const names = Object.keys(pipe.blueprint.inputs ?? {});
      if (!names.includes(list)) items.push(pipeFieldItem(pipe, 'input_list_name', `'${list}' must be one of the declared inputs (${names.join(', ') || 'none'}).`));
      if (item.trim() === '') items.push(pipeFieldItem(pipe, 'input_item_name', 'must not be empty.'));
      else if (item === list) items.push(pipeFieldItem(pipe, 'input_item_name', 'must differ from input_list_name.', 'batch_item_name_collision'));
      else if (names.includes(item)) items.push(pipeFieldItem(pipe, 'input_item_name', `'${item}' must not be a declared input.`, 'batch_item_name_collision'));
    }
    return items;
  },
};
