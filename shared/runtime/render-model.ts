/**
 * The render model: the data a template render needs, as plain structured-clonable values, so a render can run in
 * another thread (docs/isolation.md#templates). It holds only the working-memory names the template reads
 * (`templateVariables`), each as its native root and content, plus the run extras and the prompt's attachments so
 * far. Artefacts (objects that render themselves) are rebuilt from it where the template renders
 * (template-context.ts).
 * @see docs/runtime.md#template-context, docs/runtime.md#images-and-documents, docs/template-rendering.md
 */
import type { Library } from '../mthds/index.js';
import { templateVariables } from '../templating/index.js';
import { nativeRootOf } from './content-rendering.js';
import type { PromptAttachment } from './prompt-media.js';
import type { StuffContent } from './stuff.js';
import type { WorkingMemory } from './working-memory.js';

/** One stuff as a template sees it. */
export interface RenderStuff {
  /** The native concept its concept is shaped like (`Text`, `Image`, …), or null for a structured concept. */
  nativeRoot: string | null;
  content: StuffContent;
}

/** Everything one render reads. */
export interface RenderModel {
  /** Root stuffs by name. */
  stuffs: Record<string, RenderStuff>;
  /** Aliases read by the template, to the name of a stuff of {@link RenderModel.stuffs}. */
  aliases: Record<string, string>;
  /**
   * Run parameters and operator extras (`_nb_output`, `extra_context` entries); they shadow stuffs of the same name.
   */
  extras: Record<string, unknown>;
  /**
   * In a PipeLLM prompt: the attachments registered by earlier renders of the same prompt
   * (docs/runtime.md#images-and-documents).
   */
  attachments?: PromptAttachment[];
}

/**
 * Build the model of one template.
 * @param library - the run's library (for native roots)
 * @param memory - the working memory the pipe sees
 * @param template - the template about to render (its free variables select the stuffs)
 * @param extras - run parameters and operator extras
 * @param attachments - a PipeLLM prompt's attachments so far; absent outside prompts
 * @throws Jinja2TemplateSyntaxError when the template does not parse
 */
export function renderModel(
  library: Library,
  memory: WorkingMemory,
  template: string,
  extras: Record<string, unknown> = {},
  attachments?: PromptAttachment[],
): RenderModel {
  const read = new Set(templateVariables(template).roots);
  const stuffs: Record<string, RenderStuff> = {};
  const include = (name: string) => {
    const stuff = memory.find(name);
    if (stuff && !Object.hasOwn(stuffs, name))
      stuffs[name] = { nativeRoot: nativeRootOf(library, stuff.concept), content: stuff.content };
  };
  for (const name of read) if (memory.isRootName(name)) include(name);
  const aliases: Record<string, string> = {};
  for (const [alias, target] of memory.aliasEntries()) {
    if (!read.has(alias)) continue;
    include(target);
    aliases[alias] = target;
  }
  return attachments ? { stuffs, aliases, extras, attachments } : { stuffs, aliases, extras };
}

/**
 * Whether a render model is small: at most `maxChars` when its strings count their length, binary values their byte
 * length, and every other value, list item and object member one. Counting stops at the limit, so a large model costs
 * no more to measure than a small one.
 * @param model - the model of one render
 * @param maxChars - the limit, in characters
 */
export function renderModelWithin(model: RenderModel, maxChars: number): boolean {
  let total = 0;
  const pending: unknown[] = [model.stuffs, model.extras, model.attachments];
  while (pending.length > 0) {
    const value = pending.pop();
    total += 1;
    if (typeof value === 'string') total += value.length;
    else if (ArrayBuffer.isView(value)) total += value.byteLength;
    else if (value !== null && typeof value === 'object') {
      const members = Array.isArray(value) ? value : Object.values(value);
      if (total + members.length > maxChars) return false;
      for (const member of members) pending.push(member);
    }
    if (total > maxChars) return false;
  }
  return true;
}
