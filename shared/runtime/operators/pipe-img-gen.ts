/**
 * PipeImgGen: render the prompt (and negative prompt) and generate `Image` or `Image[N]` (docs/runtime.md#pipeimggen,
 * docs/pipes.md#pipeimggen). `Image[]` without a count generates one image per the multiplicity rules (variable → 1).
 * The
 * `aspect_ratio` and `size` (a tier or `{width, height}`, pipelex-api 0.16) go to the backend as written.
 */
import { PipeFeatureNotSupportedError } from '../../errors/index.js';
import type { PipeImgGenBlueprint } from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import { resolveMultiplicity } from '../multiplicity.js';
import { outputConceptOf } from '../output-concept.js';
import type { PipeRunner } from '../pipe-job.js';
import { storePipeOutput } from '../pipe-output.js';
import type { ItemContent } from '../stuff.js';
import { modelRefOf } from './model-ref.js';

/**
 * Run a PipeImgGen job.
 * @throws PipeFeatureNotSupportedError (501) when the inference backend cannot generate images; template and provider
 * errors
 */
export const runPipeImgGen: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeImgGenBlueprint;
  const { inference, signal } = environment.deps;
  if (!inference.generateImages)
    throw new PipeFeatureNotSupportedError(
      `Pipe '${job.pipe.code}': the inference backend '${inference.name}' cannot generate images.`,
    );
  const multiplicity = resolveMultiplicity(job.pipe.output.multiplicity, job.params.outputMultiplicity);
  const count = typeof multiplicity === 'number' ? multiplicity : 1;
  const extras = typeof multiplicity === 'number' ? { _nb_output: multiplicity } : {};
  const render = async (template: string) =>
    (await renderJobTemplate(job, environment, template, { category: 'img_gen_prompt' }, extras)).text;
  const prompt = await render(blueprint.prompt);
  const negativePrompt = blueprint.negative_prompt === undefined ? undefined : await render(blueprint.negative_prompt);
  const modelRef = modelRefOf(blueprint.model);
  const { images } = await inference.generateImages({
    pipeCode: job.pipe.code,
    prompt,
    count,
    ...(negativePrompt === undefined ? {} : { negativePrompt }),
    ...(modelRef === undefined ? {} : { modelRef }),
    ...(blueprint.aspect_ratio === undefined ? {} : { aspectRatio: blueprint.aspect_ratio }),
    ...(blueprint.size === undefined ? {} : { size: blueprint.size }),
    ...(signal ? { signal } : {}),
  });
  const items = images.map((image) => ({ ...image }) as ItemContent);
  const concept = outputConceptOf(job, environment.library);
  storePipeOutput(
    job,
    environment,
    concept,
    multiplicity === 'single' ? { kind: 'item', item: items[0]! } : { kind: 'list', items },
  );
};
