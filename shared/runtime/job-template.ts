/**
 * Rendering one template of a pipe job: build its render model from the job's working memory and hand it to the
 * run's template renderer (template-renderer.ts).
 * @see docs/template-rendering.md
 */
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import type { PromptAttachment } from './prompt-media.js';
import { renderModel } from './render-model.js';
import { inThreadTemplateRenderer, type RenderedTemplate, type TemplateRenderOptions } from './template-renderer.js';

/**
 * Render a template against a job's working memory.
 * @param job - the job (its working memory)
 * @param environment - library, deps (the template renderer, in-thread when none is given; the abort signal)
 * @param template - template text as written
 * @param options - category, tag style, text format, media
 * @param extras - run parameters and operator extras
 * @param attachments - with `media`: the prompt's attachments so far
 * @throws the renderer's Jinja2Template* errors (422), ServerBusyError (503)
 */
export function renderJobTemplate(
  job: PipeJob,
  environment: RunEnvironment,
  template: string,
  options: Omit<TemplateRenderOptions, 'signal'>,
  extras: Record<string, unknown> = {},
  attachments?: PromptAttachment[],
): Promise<RenderedTemplate> {
  const renderer = environment.deps.templates ?? inThreadTemplateRenderer;
  const model = renderModel(
    environment.library,
    job.memory,
    template,
    extras,
    options.media ? (attachments ?? []) : undefined,
  );
  const signal = environment.deps.signal;
  // no leading spread that adds members (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
  return renderer.render(template, model, signal ? Object.assign({}, options, { signal }) : options);
}
