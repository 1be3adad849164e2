/**
 * The render context of a template: one artefact per working-memory name (root names and aliases) plus run
 * parameters such as `_nb_output` (RUNTIME.md §1.6).
 */
import type { Library } from '../mthds/index.js';
import { stuffArtefact } from './content-rendering.js';
import type { PromptMedia } from './prompt-media.js';
import type { WorkingMemory } from './working-memory.js';

/**
 * Build the context.
 * @param library - the run's library
 * @param memory - the working memory the pipe sees
 * @param extras - run parameters and operator extras (keys starting with `_`, `extra_context` entries)
 * @param media - a PipeLLM prompt's media registry (Images and Documents become attachments)
 */
export function templateContext(library: Library, memory: WorkingMemory, extras: Record<string, unknown> = {}, media?: PromptMedia): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const [name, stuff] of memory.entries()) context[name] = stuffArtefact(library, stuff, media);
  for (const [alias, target] of memory.aliasEntries()) {
    if (context[target] !== undefined) context[alias] = context[target];
  }
  return { ...context, ...extras };
}
