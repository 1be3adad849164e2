/**
 * S4 PipeSequence / PipeParallel: a step or branch sets at most one of `nb_output` and `multiple_output`.
 * @see docs/pipes.md#pipesequence, docs/data-flow.md#multiplicity-overrides, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { subPipesOf } from './sub-pipes.js';

/** S4 sub-pipe output override (`invalid_pipe_field`). */
export const subPipeOutputOverride: Rule = {
  id: 'S4-sub-pipe-output-override',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-sub-pipe-output-override',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      subPipesOf(pipe)
        .filter(({ sub }) => sub.nb_output !== undefined && sub.multiple_output !== undefined)
        .map(({ at }) =>
          pipeItem(
            subPipeOutputOverride,
            pipe,
            MESSAGES.sub_pipe_output_override({ pipe: pipe.code, at }),
            pipeField(pipe, `${at}.nb_output`),
          ),
        ),
    ),
};
