/**
 * PipeLLM: render the prompts, call the model, store text or structured output (docs/runtime.md#pipellm).
 *
 * Object mode uses `model_to_structure` when set, else `model`. With `structuring_method = "preliminary_text"` the
 * model first drafts free text (with `model`), then a second call structures the draft
 * (docs/runtime.md#structuring-method).
 *
 * Text mode when the output concept is text-like and single; otherwise object mode: one object valid against the
 * concept's JSON schema, or `{items: [...]}` for `X[]` / `X[N]` outputs, re-asked until valid by the inference port.
 */
import type { Concept, PipeLLMBlueprint } from '../../mthds/index.js';
import type { TagStyle, TextFormat } from '../../templating/index.js';
import { renderJobTemplate } from '../job-template.js';
import { resolveMultiplicity } from '../multiplicity.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeJob, PipeRunner, RunEnvironment } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { LlmRequest } from '../ports.js';
import type { PromptAttachment } from '../prompt-media.js';
import type { StuffContent } from '../stuff.js';
import { promptAttachments } from './prompt-attachments.js';
import { generateStructured, modelChoice, STRUCTURING_SYSTEM_PROMPT } from './structured-output.js';

/** The rendered prompts and their attachments. */
type PromptParts = Pick<LlmRequest, 'systemPrompt' | 'userPrompt' | 'images' | 'documents'>;

const DRAFT_INSTRUCTION =
  '\n\n---\nAnswer in clear markdown prose; your answer will be turned into a structured object afterwards.';

/**
 * The prompts of the structuring call of `structuring_method = "preliminary_text"`
 * (docs/runtime.md#structuring-method): the draft
 * is wrapped in a tag and the model is asked not to invent anything.
 */
function structuringPrompts(draft: string): PromptParts {
  return {
    systemPrompt: STRUCTURING_SYSTEM_PROMPT,
    userPrompt: `Extract and structure information from this text:\n<draft_text>\n${draft}\n</draft_text>\nNow generate the JSON in the required format. Do not create information that is not in the text.`,
  };
}

async function generateContent(
  job: PipeJob,
  environment: RunEnvironment,
  concept: Concept,
  prompts: PromptParts,
  blueprint: PipeLLMBlueprint,
): Promise<StuffContent> {
  const { inference, signal } = environment.deps;
  const multiplicity = resolveMultiplicity(job.pipe.output.multiplicity, job.params.outputMultiplicity);
  const textChoice = modelChoice(blueprint.model);
  const common = { pipeCode: job.pipe.code, ...(signal ? { signal } : {}) };
  if (multiplicity === 'single' && environment.library.isTextLike(concept)) {
    const { text } = await inference.generateText({ ...common, ...textChoice, ...prompts });
    return { kind: 'item', item: { text } };
  }
  const objectChoice =
    blueprint.model_to_structure === undefined ? textChoice : modelChoice(blueprint.model_to_structure);
  let objectPrompts = prompts;
  if (blueprint.structuring_method === 'preliminary_text') {
    const { text: draft } = await inference.generateText({
      ...common,
      ...textChoice,
      ...prompts,
      userPrompt: `${prompts.userPrompt}${DRAFT_INSTRUCTION}`,
    });
    objectPrompts = structuringPrompts(draft);
  }
  return generateStructured(environment, concept, multiplicity, { ...common, ...objectChoice, ...objectPrompts });
}

/**
 * The prompt's tag style and text format from `templating_style` (pipelex-api 0.16): a tag style alone keeps the
 * `plain` text format; absent, the renderer's defaults apply (`xml`, `plain`).
 * @param blueprint - the PipeLLM
 */
function templatingStyleOf(blueprint: PipeLLMBlueprint): { tagStyle?: TagStyle; textFormat?: TextFormat } {
  const style = blueprint.templating_style;
  if (style === undefined) return {};
  if (typeof style === 'string') return { tagStyle: style };
  return { tagStyle: style.tag_style, textFormat: style.text_format ?? 'plain' };
}

/**
 * Run a PipeLLM job.
 * @throws Jinja2Template* errors (422), LLMCompletion* errors (by category), LLMStructuredOutputError
 * @see docs/runtime.md#pipellm, docs/pipes.md#pipellm
 */
export const runPipeLLM: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeLLMBlueprint;
  const { library } = environment;
  const concept = outputConceptOf(job, library);
  const multiplicity = resolveMultiplicity(job.pipe.output.multiplicity, job.params.outputMultiplicity);
  const extras = typeof multiplicity === 'number' ? { _nb_output: multiplicity } : {};
  let registered: PromptAttachment[] = [];
  const style = templatingStyleOf(blueprint);
  const render = async (template: string) => {
    const rendered = await renderJobTemplate(
      job,
      environment,
      template,
      { category: 'llm_prompt', media: true, ...style },
      extras,
      registered,
    );
    registered = rendered.attachments ?? registered;
    return rendered.text;
  };
  const systemTemplate = blueprint.system_prompt ?? library.domains.get(job.pipe.domain_code)?.system_prompt;
  const systemPrompt = systemTemplate === undefined ? undefined : await render(systemTemplate);
  const prompts: PromptParts = { userPrompt: blueprint.prompt === undefined ? '' : await render(blueprint.prompt) };
  if (systemPrompt !== undefined) prompts.systemPrompt = systemPrompt;
  Object.assign(prompts, promptAttachments(registered, environment, job.pipe.code));
  const content = await generateContent(job, environment, concept, prompts, blueprint);
  storePipeOutput(job, environment, concept, content);
};
