/**
 * S4 PipeFunc: `function_name` is not blank.
 * @see LANGUAGE.md §3.3, §6 S4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeFunc function name (`invalid_pipe_field`). */
export const funcFunctionName: Rule = {
  id: 'S4-func-function-name',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'LANGUAGE.md §3.3, §6 S4',
  check: (context) =>
    pipesOfType(context, 'PipeFunc')
      .filter((pipe) => pipe.blueprint.function_name.trim() === '')
      .map((pipe) =>
        pipeItem(
          funcFunctionName,
          pipe,
          MESSAGES.func_name_empty({ pipe: pipe.code }),
          pipeField(pipe, 'function_name'),
        ),
      ),
};
