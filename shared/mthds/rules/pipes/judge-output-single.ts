/**
 * S4 PipeJudge, single form: the output is the question kind's native (`YesNo`, `Choice` with `options`, `Rating` with
 * `levels`) or a concept refining it, one item (no `[]` / `[N]`).
 * @see docs/language.md#pipejudge
 */
import { isMultiJudge, JUDGE_KIND_NATIVES, judgeKindOf } from '../../library/judge-questions.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

const KIND_LABELS = { yes_no: 'yes/no', choice: 'choice', rating: 'rating' } as const;

/** S4 PipeJudge single-form output (`inadequate_output_concept`). */
export const judgeOutputSingle: Rule = {
  id: 'S4-judge-output-single',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-judge-output-single',
  check: (context) =>
    pipesOfType(context, 'PipeJudge')
      .filter((pipe) => !isMultiJudge(pipe.blueprint))
      .flatMap((pipe) => {
        const kind = judgeKindOf(pipe.blueprint);
        const native = JUDGE_KIND_NATIVES[kind];
        const output = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
        if (output === undefined) return [];
        const fits =
          pipe.output.multiplicity === 'single' &&
          context.library.ancestry(output).some((ancestor) => ancestor.ref === native);
        if (fits) return [];
        const message = MESSAGES.judge_single_output({
          pipe: pipe.code,
          output: pipe.output.raw,
          native: native.replace('native.', ''),
          reason: KIND_LABELS[kind],
        });
        return [pipeItem(judgeOutputSingle, pipe, message, pipeField(pipe, 'output'))];
      }),
};
