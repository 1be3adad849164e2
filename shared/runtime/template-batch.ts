/**
 * One templating batch for a batch of runs on one library (a dry-run sweep and the default pipe's graph): each of the
 * library's templates compiles once for the whole batch, however many templates the library has.
 * @see docs/template-rendering.md
 */
import { templateBatch } from '../templating/index.js';
import type { RuntimeDeps } from './ports.js';
import { renderTemplateTask, type TemplateRenderer } from './template-renderer.js';

/**
 * The deps of a batch of runs on one library (a dry-run sweep and the default pipe's graph): without an injected
 * renderer, renders run on the calling thread through one templating batch, so each of the library's templates
 * compiles once for the whole batch however many the library has; an injected renderer is kept.
 * @param deps - the runs' deps
 * @returns deps whose `templates` is set
 */
export function withTemplateBatch(deps: RuntimeDeps): RuntimeDeps {
  if (deps.templates) return deps;
  const batch = templateBatch();
  const templates: TemplateRenderer = {
    render: async (template, model, { signal, ...options }) => {
      signal?.throwIfAborted();
      return renderTemplateTask({ template, model, options }, batch.render);
    },
  };
  return { ...deps, templates };
}
