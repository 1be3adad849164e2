/**
 * The builder of the PipeJudge field rules of S4: `blueprint_validation` items of error type `invalid_pipe_field`,
 * located on the offending field of the pipe (docs/language.md#pipejudge). Each rule gives its id and what it finds
 * wrong,
 * on the pipe as a whole or on each of its questions (the one question of the single form, each named question of
 * the multi form).
 * @see docs/language.md#pipejudge
 */
import { type JudgeQuestion, judgeQuestions } from '../../library/judge-questions.js';
import type { PipeJudgeBlueprint } from '../../parse/pipe-blueprints.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** One thing a PipeJudge field rule finds wrong: the field, as a path in the pipe table, and the item's message. */
export interface JudgeFieldProblem {
  /** e.g. `prompt`, `options`, `questions.severity.criteria.yes`. */
  field: string;
  message: string;
}

/** What a question-level rule is told about where it looks. */
export interface QuestionPlace {
  /** The pipe's code, for messages. */
  pipe: string;
  /**
   * The path in the pipe table of one of the question's fields.
   * @param name - the field relative to the question (`options`, `criteria.yes`)
   */
  field(name: string): string;
}

/**
 * A PipeJudge rule over whole pipes.
 * @param id - the rule id (`S4-judge-…`); its `see` is the rule's heading in docs/rules.md
 * @param problems - what is wrong with one PipeJudge blueprint, with its pipe code
 */
export function judgePipeRule(
  id: string,
  problems: (blueprint: PipeJudgeBlueprint, pipe: string) => JudgeFieldProblem[],
): Rule {
  const rule: Rule = {
    id,
    stage: 'S4',
    severity: 'error',
    category: 'blueprint_validation',
    error_type: 'invalid_pipe_field',
    see: `docs/rules.md#${id.toLowerCase()}`,
    check: (context) =>
      pipesOfType(context, 'PipeJudge').flatMap((pipe) =>
        problems(pipe.blueprint, pipe.code).map(({ field, message }) =>
          pipeItem(rule, pipe, message, pipeField(pipe, field)),
        ),
      ),
  };
  return rule;
}

/**
 * A PipeJudge rule over each question of each PipeJudge.
 * @param id - the rule id (`S4-judge-…`)
 * @param problems - what is wrong with one question, told the pipe code and how to name the question's fields
 */
export function judgeQuestionRule(
  id: string,
  problems: (question: JudgeQuestion, place: QuestionPlace) => JudgeFieldProblem[],
): Rule {
  return judgePipeRule(id, (blueprint, pipe) =>
    judgeQuestions(blueprint).flatMap((question) =>
      problems(question, { pipe, field: (name) => `${question.fieldPrefix}${name}` }),
    ),
  );
}
