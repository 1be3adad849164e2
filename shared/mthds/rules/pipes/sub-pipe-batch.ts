/**
 * S4 PipeSequence / PipeParallel: `batch_over` and `batch_as` are both set or both absent, and differ.
 * @see docs/pipes.md#pipesequence, docs/data-flow.md#batching, docs/rules.md#pipes-s4
 */
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { subPipesOf } from './sub-pipes.js';

/** S4 inline batch settings (`invalid_pipe_field`). */
export const subPipeBatch: Rule = {
  id: 'S4-sub-pipe-batch',
  stage: 'S4',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  see: 'docs/rules.md#s4-sub-pipe-batch',
  check: (context) =>
    pipesOf(context).flatMap((pipe) =>
      subPipesOf(pipe).flatMap(({ at, sub }) => {
        const paired = (sub.batch_over === undefined) === (sub.batch_as === undefined);
        const same = sub.batch_over !== undefined && sub.batch_over === sub.batch_as;
        if (paired && !same) return [];
        const field = sub.batch_over === undefined ? 'batch_over' : 'batch_as';
        return [
          pipeItem(
            subPipeBatch,
            pipe,
            MESSAGES.sub_pipe_batch_pair({ pipe: pipe.code, at, same }),
            pipeField(pipe, `${at}.${field}`),
          ),
        ];
      }),
    ),
};
