/**
 * S4 PipeSequence: at least one step; per step, not both `nb_output` and `multiple_output`; `batch_over` and
 * `batch_as` both present or both absent, and different (LANGUAGE.md §3.8).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { pipeFieldItem } from './field-item.js';
import { pipesOf, type Rule } from './rule.js';

export const sequenceSteps: Rule = {
  id: 'S4-sequence-steps',
  stage: 'S4',
  severity: 'error',
  see: 'LANGUAGE.md §3.8',
  check: (context) => {
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeSequence' && pipe.blueprint.type !== 'PipeParallel') continue;
      const list = pipe.blueprint.type === 'PipeSequence' ? pipe.blueprint.steps : pipe.blueprint.branches;
      const name = pipe.blueprint.type === 'PipeSequence' ? 'steps' : 'branches';
      if (list.length === 0) items.push(pipeFieldItem(pipe, name, `a ${pipe.blueprint.type} needs at least one entry in ${name}.`));
      list.forEach((step, index) => {
        const at = `${name}[${index}]`;
        if (step.nb_output !== undefined && step.multiple_output !== undefined) items.push(pipeFieldItem(pipe, at, 'set nb_output or multiple_output, not both.'));
        if ((step.batch_over === undefined) !== (step.batch_as === undefined)) items.push(pipeFieldItem(pipe, at, 'batch_over and batch_as go together.'));
        if (step.batch_over !== undefined && step.batch_over === step.batch_as) items.push(pipeFieldItem(pipe, at, 'batch_as must differ from batch_over.'));
      });
    }
    return items;
  },
};
