/**
 * The render context of a template, rebuilt from its render model: one artefact per stuff name and alias, plus run
 * parameters such as `_nb_output` (docs/runtime.md#template-context).
 */
import { contentArtefact } from './content-rendering.js';
import type { PromptMedia } from './prompt-media.js';
import type { RenderModel } from './render-model.js';

/**
 * Build the context.
 * @param model - the stuffs, aliases and extras the template reads
 * @param media - a PipeLLM prompt's media registry (Images and Documents become attachments)
 */
export function templateContext(model: RenderModel, media?: PromptMedia): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const [name, stuff] of Object.entries(model.stuffs))
    context[name] = contentArtefact(stuff.nativeRoot, stuff.content, media);
  for (const [alias, target] of Object.entries(model.aliases)) {
    if (context[target] !== undefined) context[alias] = context[target];
  }
  return { ...context, ...model.extras };
}
