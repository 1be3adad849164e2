/**
 * PipeJudge: ask a judgment model closed questions about evidence and store the typed verdicts
 * (docs/language.md#pipejudge,
 * a feature newer than the 0.16 contract).
 *
 * The `prompt` is rendered as a PipeLLM user prompt (images and documents become attachments with `[Image N]` /
 * `[Document N]` tokens); each question is rendered as a `basic` template. One structured-output request goes through
 * the inference port with the model read in the deck's `judgment` category (its names end on LLM handles: the
 * judgment is emulated by an LLM, so probabilities stay absent and a yes/no `threshold` has nothing to apply to).
 * The single form stores the verdict native (`YesNo`, `Choice`, `Rating`) under the declared concept; the multi form
 * stores one verdict per question as the fields of the declared structured concept. A dry run answers with the
 * reference's deterministic mock after rendering the prompt and questions, and makes no call.
 *
 * A run records its execution data on its graph node, when the run records a graph (the reference's keys, per
 * question in the multi form): the rendered prompt and question(s), the model that answered, the kind(s), the raw
 * answer(s), and for a yes/no question declaring a `threshold` the threshold, `threshold_applied: false` (no
 * probability to apply it to) and the warning the reference logs in that case. A dry run records the same keys with
 * the mock's raw answers, the `model` reference as written as its model (null when the pipe names none: no call
 * resolves the deck's default), and no warning (the reference logs none in a dry run).
 */
import { JudgmentRefusedError } from '../../errors/index.js';
import {
  type Concept,
  isMultiJudge,
  type JudgeQuestion,
  judgeQuestions,
  type Library,
  type PipeJudgeBlueprint,
} from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeJob, PipeRunner, RunEnvironment } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { PromptAttachment } from '../prompt-media.js';
import type { ItemContent } from '../stuff.js';
import {
  type AskedQuestion,
  JUDGMENT_SYSTEM_PROMPT,
  judgmentAnswerSchema,
  judgmentUserPrompt,
} from './judgment-request.js';
import { dryRunVerdict, type JudgeOutcome, readJudgment } from './judgment-verdict.js';
import { promptAttachments } from './prompt-attachments.js';

/** The judgment-deck reference a `model` field names. */
function judgmentModelRef(model: PipeJudgeBlueprint['model']): string | undefined {
  if (model === undefined || typeof model === 'string') return model;
  return 'raw' in model ? model.raw : model.model;
}

/** Shape problems of a candidate answer (each question answered by an object), for the port's re-asks. */
function answerShapeProblems(questions: readonly JudgeQuestion[], value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['(root) must be an object'];
  return questions
    .filter((question) => {
      const answer = (value as Record<string, unknown>)[question.name];
      return answer === null || typeof answer !== 'object' || Array.isArray(answer);
    })
    .map((question) => `/${question.name} must be an object`);
}

/** The warning the reference logs when a threshold has no probability to apply to. */
function thresholdWarning(pipeCode: string, question: JudgeQuestion): string {
  return `PipeJudge '${pipeCode}', question '${question.name}': threshold ${question.threshold} was not applied: the judgment model gave no probability, so its yes/no stands.`;
}

/**
 * The execution data of a judgment (single form: the reference's keys; multi form: the same keys per question).
 * @param job - the job
 * @param evidence - the rendered prompt
 * @param asked - the rendered questions
 * @param model - the model handle that answered; in a dry run the `model` reference as written, null without one
 * @param answers - the raw answer object (in a dry run, the deterministic mock's)
 * @param dryRun - a dry run logs no threshold warning (docs/language.md#pipejudge), so none is recorded
 */
function judgmentExecutionData(
  job: PipeJob,
  evidence: string,
  asked: readonly AskedQuestion[],
  model: string | null,
  answers: unknown,
  dryRun: boolean,
): Record<string, unknown> {
  const raw = (name: string): unknown =>
    answers !== null && typeof answers === 'object' ? (answers as Record<string, unknown>)[name] : undefined;
  const thresholded = asked.filter(({ question }) => question.kind === 'yes_no' && question.threshold !== undefined);
  const warnings = dryRun ? undefined : thresholded.map(({ question }) => thresholdWarning(job.pipe.code, question));
  const warned = warnings === undefined ? {} : { warnings };
  const blueprint = job.pipe.blueprint as PipeJudgeBlueprint;
  if (!isMultiJudge(blueprint)) {
    const [single] = asked;
    return {
      rendered_prompt: evidence,
      rendered_question: single?.instructions ?? '',
      resolved_model: model,
      judgment_kind: single?.question.kind ?? 'yes_no',
      answer: raw(single?.question.name ?? 'question') ?? null,
      ...(single?.question.threshold === undefined
        ? {}
        : { threshold: single.question.threshold, threshold_applied: false, ...warned }),
    };
  }
  const perQuestion = <T>(read: (entry: AskedQuestion) => T): Record<string, T> =>
    Object.fromEntries(asked.map((entry) => [entry.question.name, read(entry)]));
  const byName = (read: (entry: AskedQuestion) => unknown): Record<string, unknown> =>
    Object.fromEntries(thresholded.map((entry) => [entry.question.name, read(entry)]));
  return {
    rendered_prompt: evidence,
    rendered_questions: perQuestion((entry) => entry.instructions),
    resolved_model: model,
    judgment_kinds: perQuestion((entry) => entry.question.kind),
    answers: perQuestion((entry) => raw(entry.question.name) ?? null),
    ...(thresholded.length === 0
      ? {}
      : {
          thresholds: byName((entry) => entry.question.threshold),
          threshold_applied: byName(() => false),
          ...warned,
        }),
  };
}

/** The raw answer the dry-run mock stands for: its verdict without the label the runtime copies from the scale. */
function rawDryRunAnswer(verdict: ItemContent): ItemContent {
  const { label: _label, ...answer } = verdict;
  return answer;
}

async function askQuestions(
  job: PipeJob,
  environment: RunEnvironment,
  blueprint: PipeJudgeBlueprint,
  questions: readonly JudgeQuestion[],
): Promise<Map<string, JudgeOutcome>> {
  const evidence = await renderJobTemplate(job, environment, blueprint.prompt, { category: 'llm_prompt', media: true });
  const registered: readonly PromptAttachment[] = evidence.attachments ?? [];
  const asked: AskedQuestion[] = [];
  for (const question of questions) {
    const rendered = await renderJobTemplate(job, environment, question.question, { category: 'basic' });
    asked.push({ question, instructions: rendered.text });
  }
  const modelRef = judgmentModelRef(blueprint.model);
  const node = job.params.parentNode;
  const record = (model: string | null, answers: unknown): void => {
    if (environment.graph && node !== undefined)
      environment.graph.recordExecutionData(
        node,
        judgmentExecutionData(job, evidence.text, asked, model, answers, environment.dryRun !== undefined),
      );
  };
  if (environment.dryRun) {
    const verdicts = questions.map((question): [string, ItemContent] => [question.name, dryRunVerdict(question)]);
    record(modelRef ?? null, Object.fromEntries(verdicts.map(([name, verdict]) => [name, rawDryRunAnswer(verdict)])));
    return new Map(verdicts.map(([name, verdict]): [string, JudgeOutcome] => [name, { verdict }]));
  }
  const { inference, signal } = environment.deps;
  const { object, usage } = await inference.generateObject({
    pipeCode: job.pipe.code,
    modelCategory: 'judgment',
    ...(modelRef === undefined ? {} : { modelRef }),
    systemPrompt: JUDGMENT_SYSTEM_PROMPT,
    userPrompt: judgmentUserPrompt(evidence.text, asked),
    ...promptAttachments(registered, environment, job.pipe.code),
    schemaName: 'Judgment',
    jsonSchema: judgmentAnswerSchema(questions),
    validate: (value) => answerShapeProblems(questions, value),
    ...(signal ? { signal } : {}),
  });
  const outcomes = readJudgment(job.pipe.code, questions, object);
  record(usage.model, object);
  return outcomes;
}

function refused(pipeCode: string, name: string, reason: string): JudgmentRefusedError {
  return new JudgmentRefusedError(`PipeJudge '${pipeCode}': the judgment model refused question '${name}': ${reason}`);
}

/** The multi form's content: one verdict per question; a refused optional field without default is left absent. */
function multiContent(
  library: Library,
  pipeCode: string,
  concept: Concept,
  outcomes: Map<string, JudgeOutcome>,
): ItemContent {
  const fields = library.ancestry(concept).find((ancestor) => ancestor.structure !== null)?.structure ?? {};
  const content: ItemContent = {};
  for (const [name, outcome] of outcomes) {
    if ('verdict' in outcome) {
      content[name] = outcome.verdict;
      continue;
    }
    const field = fields[name];
    if (field === undefined || field.required || field.default_value !== undefined)
      throw refused(pipeCode, name, outcome.refusal);
  }
  return content;
}

/**
 * Run a PipeJudge job.
 * @throws Jinja2Template* errors (422) rendering the prompt or a question, ModelChoiceNotFoundError (422) for a
 *   judgment model the deck does not know, LLMCompletion* / LLMStructuredOutputError from the call,
 *   JudgmentAnswerMismatchError (500) for answers out of the questions' kinds, JudgmentRefusedError (422) for a
 *   refusal the output cannot leave absent
 * @see docs/language.md#pipejudge
 */
export const runPipeJudge: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeJudgeBlueprint;
  const questions = judgeQuestions(blueprint);
  const concept = outputConceptOf(job, environment.library);
  const outcomes = await askQuestions(job, environment, blueprint, questions);
  let item: ItemContent;
  if (isMultiJudge(blueprint)) item = multiContent(environment.library, job.pipe.code, concept, outcomes);
  else {
    const [question] = questions;
    const outcome = question === undefined ? undefined : outcomes.get(question.name);
    if (outcome === undefined || !('verdict' in outcome))
      throw refused(job.pipe.code, 'question', outcome?.refusal ?? 'no answer');
    item = outcome.verdict;
  }
  storePipeOutput(job, environment, concept, { kind: 'item', item });
};
