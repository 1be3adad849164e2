/**
 * S4 PipeFunc: `function_name` is not blank.
 * @see docs/pipes.md#pipefunc, docs/rules.md#pipes-s4
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
  see: 'docs/rules.md#s4-func-function-name',
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
