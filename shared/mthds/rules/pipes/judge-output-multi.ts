/**
 * S4 PipeJudge, multi form: the output is a structured concept (its own structure or the nearest ancestor's), one item,
 * whose fields are exactly the question names, each a `concept` field whose `concept_ref` is the question kind's
 * native (`YesNo`, `Choice`, `Rating`) or a concept refining it.
 * @see docs/language.md#pipejudge
 */
import type { Concept, ConceptField } from '../../library/concept.js';
import { isMultiJudge, JUDGE_KIND_NATIVES, type JudgeQuestion, judgeQuestions } from '../../library/judge-questions.js';
import type { Library } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

function fieldProblem(
  library: Library,
  name: string,
  field: ConceptField,
  question: JudgeQuestion,
): string | undefined {
  const native = JUDGE_KIND_NATIVES[question.kind];
  const target = field.type === 'concept' && field.concept_ref ? library.findConcept(field.concept_ref) : undefined;
  if (target !== undefined && library.ancestry(target).some((ancestor) => ancestor.ref === native)) return undefined;
  return `field '${name}' must be a concept field of "${native.replace('native.', '')}" (or a concept refining it)`;
}

function problem(library: Library, output: Concept, questions: JudgeQuestion[]): string | undefined {
  const shape = library.ancestry(output).find((ancestor) => ancestor.structure !== null);
  if (shape === undefined || output.isNative) return 'it has no structure';
  const fields = shape.structure ?? {};
  const names = questions.map((question) => question.name);
  const missing = names.filter((name) => !(name in fields));
  if (missing.length > 0) return `no field for question ${missing.map((name) => `'${name}'`).join(', ')}`;
  const extra = Object.keys(fields).filter((name) => !names.includes(name));
  if (extra.length > 0) return `field ${extra.map((name) => `'${name}'`).join(', ')} answers no question`;
  for (const question of questions) {
    const why = fieldProblem(library, question.name, fields[question.name]!, question);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** S4 PipeJudge multi-form output (`inadequate_output_concept`). */
export const judgeOutputMulti: Rule = {
  id: 'S4-judge-output-multi',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#s4-judge-output-multi',
  check: (context) =>
    pipesOfType(context, 'PipeJudge')
      .filter((pipe) => isMultiJudge(pipe.blueprint))
      .flatMap((pipe) => {
        const output = context.library.findConcept(pipe.output.conceptRef, pipe.domain_code);
        if (output === undefined) return [];
        const why =
          pipe.output.multiplicity === 'single'
            ? problem(context.library, output, judgeQuestions(pipe.blueprint))
            : 'a list is refused';
        if (why === undefined) return [];
        const message = MESSAGES.judge_multi_output({ pipe: pipe.code, output: pipe.output.raw, problem: why });
        return [pipeItem(judgeOutputMulti, pipe, message, pipeField(pipe, 'output'))];
      }),
};
