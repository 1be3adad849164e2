/**
 * The template renderer port (CONTRIBUTING.md#3-the-runtime-reaches-out-through-ports; docs/isolation.md#templates):
 * every template a run renders —
 * PipeLLM prompts, PipeCompose templates and construct fields, PipeCondition expressions, PipeSearch and PipeImgGen
 * prompts — goes through it, as a template plus its serializable {@link RenderModel}. The host decides where the
 * render runs: {@link inThreadTemplateRenderer} renders on the calling thread (the default, for threads that are
 * already isolated and for tests); the API and the queue workers inject a renderer that runs each render in a thread
 * with hard time and heap limits.
 * @see docs/template-rendering.md
 */
import { type RenderOptions, renderTemplate, type TemplateBatch, type TemplateLimits } from '../templating/index.js';
import { type PromptAttachment, PromptMedia } from './prompt-media.js';
import type { RenderModel } from './render-model.js';
import { templateContext } from './template-context.js';

/** How to render: category, tag style, text format; `media` for a PipeLLM prompt (Images and Documents attach). */
export interface TemplateRenderOptions extends Omit<RenderOptions, 'limits'> {
  /** Render Image and Document contents as `[Image N]` / `[Document N]` and return the prompt's attachments. */
  media?: boolean;
  /** Aborts the render (the run was cancelled). */
  signal?: AbortSignal;
}

/** A rendered template. */
export interface RenderedTemplate {
  text: string;
  /** With `media`: the model's attachments followed by those this render registered, in order. */
  attachments?: PromptAttachment[];
}

/** The port. */
export interface TemplateRenderer {
  /**
   * Render a template.
   * @param template - template text as written (shorthands allowed)
   * @param model - the data the template reads
   * @param options - category, tag style, text format, media, abort signal
   * @returns the text, and the attachments when `media` is set
   * @throws Jinja2TemplateSyntaxError, Jinja2TemplateRenderError, Jinja2TemplateSecurityError,
   *   Jinja2TemplateBudgetError (422); a renderer with hard limits also throws Jinja2TemplateBudgetError when a render
   *   outlives them, and ServerBusyError (503) when it cannot take the render
   */
  render(template: string, model: RenderModel, options: TemplateRenderOptions): Promise<RenderedTemplate>;
}

/** A render as data: what a render thread receives. */
export interface TemplateRenderTask {
  template: string;
  model: RenderModel;
  options: Omit<TemplateRenderOptions, 'signal'>;
  /** The output budget; the process's configured limits when absent. */
  limits?: TemplateLimits;
}

/**
 * Render a template from its model on the calling thread: rebuild the artefacts (and the prompt's media registry),
 * render under the cooperative budgets of the templating module.
 * @param task - template, model, options and limits
 * @param render - the templating module's `renderTemplate`, or a batch's `render`
 * @returns the text and, with `media`, the attachments
 * @throws the Jinja2Template* errors of `renderTemplate` (422)
 */
export function renderTemplateTask(
  task: TemplateRenderTask,
  render: TemplateBatch['render'] = renderTemplate,
): RenderedTemplate {
  const { template, model, options } = task;
  const media = options.media ? new PromptMedia(model.attachments) : undefined;
  const renderOptions: RenderOptions = { category: options.category };
  if (options.tagStyle !== undefined) renderOptions.tagStyle = options.tagStyle;
  if (options.textFormat !== undefined) renderOptions.textFormat = options.textFormat;
  if (options.strictUndefined) renderOptions.strictUndefined = true;
  if (task.limits !== undefined) renderOptions.limits = task.limits;
  const text = render(template, templateContext(model, media), renderOptions);
  return media ? { text, attachments: media.all() } : { text };
}

/** Renders on the calling thread, under the process's configured limits. */
export const inThreadTemplateRenderer: TemplateRenderer = {
  render: async (template, model, { signal, ...options }) => {
    signal?.throwIfAborted();
    return renderTemplateTask({ template, model, options });
  },
};
