/**
 * S4 PipeCompose: exactly one of `template` and `construct`.
 * @see docs/pipes.md#pipecompose, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** S4 PipeCompose template or construct (`invalid_pipe_field`). */
export const composeMode: Rule = {
  id: 'S4-compose-mode',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-compose-mode',
  check: (context) =>
    pipesOfType(context, 'PipeCompose')
      .filter((pipe) => (pipe.blueprint.template === undefined) === (pipe.blueprint.construct === undefined))
      .map((pipe) =>
        pipeItem(
          composeMode,
          pipe,
          MESSAGES.compose_mode({ pipe: pipe.code, both: pipe.blueprint.template !== undefined }),
          pipeField(pipe, pipe.blueprint.template === undefined ? 'template' : 'construct'),
        ),
      ),
};
