/**
 * PipeStructure: turn its one text input into structured content of the output concept with one structured-output
 * LLM call (docs/pipes.md#pipestructure, reference `pipe_operators/structure`, pipelex-api 0.16).
 *
 * The input is rendered as text; the prompt is the structuring prompt of docs/runtime.md#structuring-method ([NEW]
 * wording) around
 * it. Model: the pipe's `model`, else the deck's `for_object` default. `X[]` / `X[N]` outputs and the step overrides
 * `nb_output` / `multiple_output` ask for a list, as PipeLLM object mode does. A dry run goes through the same call to
 * the mock backend.
 *
 * An input declared optional (`Text?`) and absent (docs/language.md#optionality-presence-markers-and-absences): the
 * pipe runs with the value undefined. When
 * its output is declared optional too (`X?`) there is nothing to structure and the output resolves to a
 * `declared_absent` absence without a call; otherwise the call is made on an empty text, as the structuring template
 * renders an undefined `text`.
 */
import type { PipeStructureBlueprint } from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { resolveMultiplicity } from '../multiplicity.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import { generateStructured, modelChoice, STRUCTURING_SYSTEM_PROMPT } from './structured-output.js';

/** The instruction put before the text (docs/runtime.md#structuring-method [NEW]). */
const STRUCTURING_INSTRUCTION =
  'Read the following text carefully and produce the requested structured output from it.';

/**
 * The user prompt of a PipeStructure call.
 * @param text - the input rendered as text
 * @returns the instruction, a `---` line, then the text
 */
function structurePrompt(text: string): string {
  return `${STRUCTURING_INSTRUCTION}\n---\n${text}`;
}

/**
 * Run a PipeStructure job.
 * @throws Jinja2Template* errors (422) rendering the input, LLMCompletion* errors (by category),
 *   LLMStructuredOutputError
 * @see docs/pipes.md#pipestructure
 */
export const runPipeStructure: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeStructureBlueprint;
  const input = job.pipe.inputs[0];
  const root = input?.name.split('.')[0];
  if (
    root !== undefined &&
    input?.presence === 'optional' &&
    !job.memory.has(root) &&
    job.pipe.output.presence === 'optional'
  ) {
    job.memory.setAbsentMainStuff({
      variableName: job.outputName ?? 'main_stuff',
      kind: 'declared_absent',
      reason: `PipeStructure '${job.pipe.code}' had no text to structure: its optional input '${input.name}' is absent`,
      producingPipe: job.pipe.code,
      upstream: job.memory.absence(root) ?? null,
    });
    return;
  }
  const text =
    input === undefined
      ? ''
      : (await renderJobTemplate(job, environment, `{{ ${input.name} }}`, { category: 'basic' })).text;
  const concept = outputConceptOf(job, environment.library);
  const multiplicity = resolveMultiplicity(job.pipe.output.multiplicity, job.params.outputMultiplicity);
  const { signal } = environment.deps;
  const content = await generateStructured(environment, concept, multiplicity, {
    pipeCode: job.pipe.code,
    ...modelChoice(blueprint.model),
    systemPrompt: STRUCTURING_SYSTEM_PROMPT,
    userPrompt: structurePrompt(text),
    ...(signal ? { signal } : {}),
  });
  storePipeOutput(job, environment, concept, content);
};
